"""simplified_dropconnect: the fraction of weights dropped, one mask per
sample or per batch, the 1 / (1 - ratio) scale, train=False, given masks
and gradients through them."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads
from . import assert_fraction

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _probe(dtype, n, m_out, n_in):
    """x of one-hot rows and W of ones: y[i, j] is the mask entry
    (i, j, k) of the unit k that row i selects, times the scale."""
    x = numpy.zeros((n, n_in), dtype)
    x[numpy.arange(n), numpy.arange(n) % n_in] = 1
    return x, numpy.ones((m_out, n_in), dtype)


@dtype_param
class TestSimplifiedDropconnect:

    @pytest.mark.parametrize('ratio', [0.25, 0.5])
    def test_fraction_dropped_and_scale(self, dtype, ratio):
        numpy.random.seed(0)
        x, W = _probe(dtype, 400, 50, 4)
        y = F.simplified_dropconnect(x, W, ratio=ratio)
        assert y.shape == (400, 50) and y.dtype == dtype
        assert_fraction(int((y.array == 0).sum()), y.size, ratio)
        kept = y.array[y.array != 0]
        assert_close(kept, numpy.full(kept.shape, 1 / (1 - ratio)), dtype)

    def test_batchwise_masks_differ_between_samples(self, dtype):
        numpy.random.seed(1)
        x = numpy.ones((2, 30), dtype)
        W = numpy.random.uniform(-1, 1, (20, 30)).astype(dtype)
        y = F.simplified_dropconnect(x, W).array
        assert (y[0] != y[1]).any()

    def test_shared_mask_is_the_same_for_every_sample(self, dtype):
        numpy.random.seed(2)
        x = numpy.ones((3, 30), dtype)
        W = numpy.random.uniform(-1, 1, (20, 30)).astype(dtype)
        y = F.simplified_dropconnect(x, W, use_batchwise_mask=False).array
        numpy.testing.assert_array_equal(y[0], y[1])
        numpy.testing.assert_array_equal(y[0], y[2])

    def test_expectation_is_the_linear_layer(self, dtype):
        numpy.random.seed(3)
        rng = numpy.random.RandomState(4)
        x = rng.uniform(-1, 1, (1, 5)).astype(dtype)
        W = rng.uniform(-1, 1, (3, 5)).astype(dtype)
        xs = numpy.repeat(x, 20000, axis=0)
        y = F.simplified_dropconnect(xs, W).array.astype('f8').mean(axis=0)
        linear = x.astype('f8').dot(W.astype('f8').T)[0]
        # Each output sums 5 terms of variance (x_k W_jk)^2 (1/(1-r) - 1).
        sd = numpy.sqrt(((x.astype('f8') * W.astype('f8')) ** 2).sum(
            axis=1) / 20000)
        assert (abs(y - linear) < 5 * sd + 2e-3).all()

    def test_test_mode_is_linear(self, dtype):
        rng = numpy.random.RandomState(5)
        x = rng.uniform(-1, 1, (4, 2, 3)).astype(dtype)
        W = rng.uniform(-1, 1, (5, 6)).astype(dtype)
        b = rng.uniform(-1, 1, 5).astype(dtype)
        y = F.simplified_dropconnect(x, W, b, ratio=0.9, train=False)
        expected = x.reshape(4, 6).astype('f8').dot(W.astype('f8').T) + \
            b.astype('f8')
        assert_close(y, expected, dtype)

    @pytest.mark.parametrize('batchwise', [True, False])
    def test_given_mask_and_gradients(self, dtype, batchwise):
        rng = numpy.random.RandomState(6)
        x = chainer.Variable(rng.uniform(-1, 1, (4, 3)).astype(dtype))
        W = chainer.Variable(rng.uniform(-1, 1, (2, 3)).astype(dtype))
        b = chainer.Variable(rng.uniform(-1, 1, 2).astype(dtype))
        shape = (4, 2, 3) if batchwise else (2, 3)
        mask = rng.uniform(size=shape) < 0.5
        # The mask's shape decides, whatever use_batchwise_mask says.
        y = F.simplified_dropconnect(x, W, b, ratio=0.5, mask=mask,
                                     use_batchwise_mask=not batchwise)
        w = W.array.astype('f8') * mask * 2
        x64 = x.array.astype('f8')
        if batchwise:
            expected = numpy.einsum('ijk,ik->ij', w, x64)
        else:
            expected = x64.dot(w.T)
        assert_close(y, expected + b.array.astype('f8'), dtype)
        gy = rng.uniform(-1, 1, (4, 2)).astype(dtype)
        gx, gW, gb = grads(y, (x, W, b), gy)
        gy64 = gy.astype('f8')
        if batchwise:
            assert_close(gx, numpy.einsum('ij,ijk->ik', gy64, w), dtype)
            assert_close(gW, numpy.einsum('ij,ik,ijk->jk', gy64, x64,
                                          mask * 2.0), dtype)
        else:
            assert_close(gx, gy64.dot(w), dtype)
            assert_close(gW, gy64.T.dot(x64) * mask * 2, dtype)
        assert_close(gb, gy64.sum(axis=0), dtype)

    def test_config_train_does_not_matter(self, dtype):
        # Only the train argument switches the dropping off, as in Chainer.
        numpy.random.seed(7)
        x, W = _probe(dtype, 100, 20, 4)
        with chainer.using_config('train', False):
            y = F.simplified_dropconnect(x, W).array
        assert (y == 0).any()
