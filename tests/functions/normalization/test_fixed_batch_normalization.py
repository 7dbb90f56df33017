"""fixed_batch_normalization: the given statistics are used as they are,
nothing is updated, and it is differentiable in all five inputs."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _inputs(dtype, shape=(4, 3, 2), channels=(3,)):
    rng = numpy.random.RandomState(0)
    return (rng.uniform(-1, 1, shape).astype(dtype),
            rng.uniform(0.5, 1.5, channels).astype(dtype),
            rng.uniform(-1, 1, channels).astype(dtype),
            rng.uniform(-0.5, 0.5, channels).astype(dtype),
            rng.uniform(0.5, 1.5, channels).astype(dtype))


@dtype_param
class TestFixedBatchNormalization:

    def test_values(self, dtype):
        x, gamma, beta, mean, var = _inputs(dtype)
        y = F.fixed_batch_normalization(x, gamma, beta, mean, var, eps=1e-3)
        assert y.shape == x.shape and y.dtype == dtype
        e = [a.astype('f8')[:, None] for a in (gamma, beta, mean, var)]
        expected = e[0] * (x.astype('f8') - e[2]) / numpy.sqrt(
            e[3] + 1e-3) + e[1]
        assert_close(y, expected, dtype)

    def test_matches_batch_normalization_with_the_batch_statistics(
            self, dtype):
        x, gamma, beta, _, _ = _inputs(dtype)
        x64 = x.astype('f8')
        mean = x64.mean(axis=(0, 2)).astype(dtype)
        var = x64.var(axis=(0, 2)).astype(dtype)
        y = F.fixed_batch_normalization(x, gamma, beta, mean, var)
        assert_close(y, F.batch_normalization(x, gamma, beta).array, dtype)

    def test_statistics_are_not_modified(self, dtype):
        x, gamma, beta, mean, var = _inputs(dtype)
        mean0, var0 = mean.copy(), var.copy()
        F.fixed_batch_normalization(x, gamma, beta, mean, var)
        numpy.testing.assert_array_equal(mean, mean0)
        numpy.testing.assert_array_equal(var, var0)

    def test_axis(self, dtype):
        x, gamma, beta, mean, var = _inputs(dtype, (3, 4), (3,))
        y = F.fixed_batch_normalization(x, gamma, beta, mean, var, axis=1)
        expected = F.fixed_batch_normalization(x.T, gamma, beta, mean, var)
        assert_close(y, expected.array.T, dtype)

    def test_same_in_train_and_test_mode(self, dtype):
        args = _inputs(dtype)
        y1 = F.fixed_batch_normalization(*args).array
        with chainer.using_config('train', False):
            y2 = F.fixed_batch_normalization(*args).array
        numpy.testing.assert_array_equal(y1, y2)

    def test_gradients_of_the_statistics(self, dtype):
        x, gamma, beta, mean, var = (chainer.Variable(a)
                                     for a in _inputs(dtype))
        y = F.fixed_batch_normalization(x, gamma, beta, mean, var)
        gy = numpy.random.RandomState(1).uniform(-1, 1, x.shape).astype(
            dtype)
        gx, ggamma, gbeta, gmean, gvar = grads(
            y, (x, gamma, beta, mean, var), gy)
        g, m, v = (a.array.astype('f8')[:, None] for a in (gamma, mean, var))
        x64, gy64 = x.array.astype('f8'), gy.astype('f8')
        s = 1 / numpy.sqrt(v + 2e-5)
        assert_close(gx, gy64 * g * s, dtype)
        assert_close(gbeta, gy64.sum(axis=(0, 2)), dtype)
        assert_close(ggamma, (gy64 * (x64 - m) * s).sum(axis=(0, 2)), dtype)
        assert_close(gmean, -(gy64 * g * s).sum(axis=(0, 2)), dtype)
        assert_close(gvar, (-0.5 * gy64 * g * (x64 - m) * s ** 3).sum(
            axis=(0, 2)), dtype)
