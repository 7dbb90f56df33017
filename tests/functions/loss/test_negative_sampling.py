"""negative_sampling: the sampler's shape and the positive column, the
loss formula, ignored rows (t == -1), reduce, return_samples, gradients of
x and W (repeated samples accumulate), second order, and argument
errors."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

SAMPLES = [[9, 2, 5], [9, 1, 1], [9, 0, 3]]


class Sampler:
    def __init__(self):
        self.shapes = []

    def __call__(self, shape):
        self.shapes.append(shape)
        return numpy.array(SAMPLES, dtype=numpy.int32)


def _inputs(dtype, seed=0):
    rng = numpy.random.RandomState(seed)
    x = chainer.Variable(rng.uniform(-1, 1, (3, 4)).astype(dtype))
    W = chainer.Variable(rng.uniform(-1, 1, (6, 4)).astype(dtype))
    return x, W


def _ref(x, W, t):
    x, W = x.array.astype(numpy.float64), W.array.astype(numpy.float64)
    out = []
    for b in range(3):
        if t[b] == -1:
            out.append(0)
            continue
        pos = W[t[b]].dot(x[b])
        neg = W[SAMPLES[b][1:]].dot(x[b])
        out.append(numpy.log1p(numpy.exp(-pos)) +
                   numpy.log1p(numpy.exp(neg)).sum())
    return numpy.array(out)


@dtype_param
class TestNegativeSampling:

    def test_loss_and_sampler_use(self, dtype):
        x, W = _inputs(dtype)
        t = numpy.array([1, 4, 0], numpy.int32)
        sampler = Sampler()
        loss = F.negative_sampling(x, t, W, sampler, 2)
        assert sampler.shapes == [(3, 3)]
        assert loss.shape == () and loss.dtype == dtype
        assert_close(loss, _ref(x, W, t).sum(), dtype)

    def test_reduce_no_and_ignored_rows(self, dtype):
        x, W = _inputs(dtype)
        t = numpy.array([1, -1, 0], numpy.int32)
        loss = F.negative_sampling(x, t, W, Sampler(), 2, reduce='no')
        assert loss.shape == (3,)
        assert_close(loss, _ref(x, W, t), dtype)
        gx, = grads(loss, (x,))
        assert not gx[1].any()

    def test_return_samples(self, dtype):
        x, W = _inputs(dtype)
        t = numpy.array([1, 4, 0], numpy.int32)
        loss, samples = F.negative_sampling(x, t, W, Sampler(), 2,
                                            return_samples=True)
        expected = numpy.array(SAMPLES)
        expected[:, 0] = t
        numpy.testing.assert_array_equal(samples, expected)

    def test_gradients(self, dtype):
        x, W = _inputs(dtype)
        t = numpy.array([1, 4, 0], numpy.int32)
        gx, gW = grads(F.negative_sampling(x, t, W, Sampler(), 2), (x, W))
        x_, W_ = x.array.astype(numpy.float64), W.array.astype(numpy.float64)
        ex, eW = numpy.zeros((3, 4)), numpy.zeros((6, 4))
        for b in range(3):
            ids = [t[b]] + SAMPLES[b][1:]
            for k, i in enumerate(ids):
                sign = -1 if k == 0 else 1
                g = sign / (1 + numpy.exp(-sign * W_[i].dot(x_[b])))
                ex[b] += g * W_[i]
                eW[i] += g * x_[b]
        assert_close(gx, ex, dtype)
        assert_close(gW, eW, dtype)

    def test_second_order(self, dtype):
        x, W = _inputs(dtype)
        t = numpy.array([1, 4, 0], numpy.int32)
        gx, gW = chainer.grad([F.negative_sampling(x, t, W, Sampler(), 2)],
                              [x, W], enable_double_backprop=True)
        ggx, ggW = grads(F.sum(gx * gx) + F.sum(gW * gW), (x, W))
        assert ggx.shape == (3, 4) and ggW.shape == (6, 4)

    def test_bad_arguments(self, dtype):
        x, W = _inputs(dtype)
        t = numpy.array([1, 4, 0], numpy.int32)
        with pytest.raises(TypeError, match='sampler'):
            F.negative_sampling(x, t, W, 'unigram', 2)
        with pytest.raises(ValueError, match='reduce'):
            F.negative_sampling(x, t, W, Sampler(), 2, reduce='mean')
        with pytest.raises(TypeError, match='return_sample'):
            F.negative_sampling(x, t, W, Sampler(), 2, return_sample=True)
        with pytest.raises(ValueError, match='t'):
            F.negative_sampling(x, numpy.array([1, 6, 0], numpy.int32), W,
                                Sampler(), 2)
