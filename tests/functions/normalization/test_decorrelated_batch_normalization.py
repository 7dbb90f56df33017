"""decorrelated_batch_normalization: ZCA whitening per group of
consecutive channels, running mean and projection updated in place (the
projection with Chainer's m / (m - 1) factor), first-order only; the fixed
variant applies given statistics."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype, shape=(40, 4, 2)):
    rng = numpy.random.RandomState(0)
    x = rng.normal(size=shape)
    x[:, 1] += 0.8 * x[:, 0]    # correlated channels within group 0
    return x.astype(dtype)


def _grouped(a, groups):
    a = numpy.moveaxis(a.astype('f8'), 1, 0)
    return a.reshape(groups, a.shape[0] // groups, -1)


# Whitening is sensitive to the input's rounding; float16 is compared more
# loosely.
def _close(actual, expected, dtype):
    if dtype == numpy.float16:
        numpy.testing.assert_allclose(actual, expected, atol=2e-2)
    else:
        assert_close(actual, expected, dtype)


@dtype_param
class TestDecorrelatedBatchNormalization:

    @pytest.mark.parametrize('groups', [1, 2, 4])
    def test_each_group_is_whitened(self, dtype, groups):
        x = _x(dtype)
        y = F.decorrelated_batch_normalization(x, groups=groups, eps=0)
        assert y.shape == x.shape and y.dtype == dtype
        for block in _grouped(y.array, groups):
            _close(block.mean(axis=1), numpy.zeros(len(block)), dtype)
            _close(block.dot(block.T) / block.shape[1],
                   numpy.eye(len(block)), dtype)

    def test_zca_keeps_the_data_close_to_the_input(self, dtype):
        # ZCA (not PCA): for nearly white input the output is nearly the
        # centred input.
        x = numpy.random.RandomState(1).normal(size=(2000, 2)).astype(dtype)
        y = F.decorrelated_batch_normalization(x, groups=1).array
        xc = x.astype('f8') - x.astype('f8').mean(axis=0)
        numpy.testing.assert_allclose(y.astype('f8'), xc, atol=0.15)

    def test_running_statistics(self, dtype):
        x = _x(dtype)
        mean = numpy.zeros((2, 2), dtype)
        proj = numpy.stack([numpy.eye(2, dtype=dtype)] * 2)
        F.decorrelated_batch_normalization(
            x, groups=2, running_mean=mean, running_projection=proj,
            decay=0.25)
        xg = _grouped(x, 2)
        m = xg.shape[2]
        assert_close(mean, 0.75 * xg.mean(axis=2), dtype)
        for i in range(2):
            xc = xg[i] - xg[i].mean(axis=1, keepdims=True)
            w, v = numpy.linalg.eigh(xc.dot(xc.T) / m + 2e-5 * numpy.eye(2))
            expected = 0.25 * numpy.eye(2) + 0.75 * m / (m - 1) * (
                v / numpy.sqrt(w)).dot(v.T)
            _close(proj[i], expected, dtype)

    def test_fixed_with_the_batch_statistics_matches(self, dtype):
        x = _x(dtype)
        mean = numpy.zeros((2, 2), dtype)
        proj = numpy.zeros((2, 2, 2), dtype)
        y = F.decorrelated_batch_normalization(
            x, groups=2, running_mean=mean, running_projection=proj,
            decay=0.0)
        m = x.size // x.shape[1]
        proj_batch = (proj.astype('f8') * (m - 1) / m).astype(dtype)
        y_fixed = F.fixed_decorrelated_batch_normalization(
            x, mean, proj_batch, groups=2)
        _close(y_fixed.array.astype('f8'), y.array.astype('f8'), dtype)

    def test_gradient_of_the_sum_is_zero(self, dtype):
        # The output of each channel sums to zero whatever x is.
        x = chainer.Variable(_x(dtype, (6, 4)))
        y = F.decorrelated_batch_normalization(x, groups=2)
        gx, = chainer.grad([F.sum(y)], [x])
        _close(gx.array.astype('f8'), numpy.zeros((6, 4)), dtype)

    def test_no_double_backprop(self, dtype):
        x = chainer.Variable(_x(dtype, (6, 2)))
        y = F.decorrelated_batch_normalization(x, groups=1)
        gx, = chainer.grad([F.sum(y * y)], [x], enable_double_backprop=True)
        with pytest.raises(RuntimeError, match='double backprop'):
            chainer.grad([F.sum(gx * gx)], [x])

    def test_fixed_gradients(self, dtype):
        rng = numpy.random.RandomState(2)
        x = chainer.Variable(rng.uniform(-1, 1, (3, 4)).astype(dtype))
        mean = chainer.Variable(rng.uniform(-1, 1, (2, 2)).astype(dtype))
        proj = chainer.Variable(rng.uniform(-1, 1, (2, 2, 2)).astype(dtype))
        y = F.fixed_decorrelated_batch_normalization(x, mean, proj, groups=2)
        gy = rng.uniform(-1, 1, (3, 4)).astype(dtype)
        gx, gmean, gproj = chainer.grad([y], [x, mean, proj], [gy])
        p = proj.array.astype('f8')
        g = _grouped(gy, 2)
        xc = _grouped(x.array, 2) - mean.array.astype('f8')[:, :, None]
        gx_g = numpy.matmul(p.transpose(0, 2, 1), g)
        assert_close(_grouped(gx.array, 2), gx_g, dtype)
        assert_close(gmean, -gx_g.sum(axis=2), dtype)
        assert_close(gproj, numpy.matmul(g, xc.transpose(0, 2, 1)), dtype)
