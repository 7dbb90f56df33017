"""group_normalization: statistics per sample and group of consecutive
channels; one group is layer normalization over all channels, one channel
per group is instance normalization."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads
from . import assert_sums_to_zero

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype, shape=(2, 6, 3, 2)):
    return numpy.random.RandomState(0).uniform(-1, 1, shape).astype(dtype)


def _standardized(x, axes, eps=1e-5):
    x = x.astype('f8')
    return (x - x.mean(axis=axes, keepdims=True)) / numpy.sqrt(
        x.var(axis=axes, keepdims=True) + eps)


@dtype_param
class TestGroupNormalization:

    @pytest.mark.parametrize('groups', [1, 2, 3, 6])
    def test_groups_of_consecutive_channels(self, dtype, groups):
        x = _x(dtype)
        gamma = numpy.linspace(0.5, 1.5, 6).astype(dtype)
        beta = numpy.linspace(-1, 1, 6).astype(dtype)
        y = F.group_normalization(x, groups, gamma, beta)
        assert y.shape == x.shape and y.dtype == dtype
        xhat = _standardized(x.reshape(2, groups, -1), (2,)).reshape(x.shape)
        expected = xhat * gamma.astype('f8')[:, None, None] + \
            beta.astype('f8')[:, None, None]
        assert_close(y, expected, dtype)

    def test_one_group_is_layer_normalization(self, dtype):
        x = _x(dtype, (3, 4))
        gamma = numpy.linspace(0.5, 1.5, 4).astype(dtype)
        beta = numpy.linspace(-1, 1, 4).astype(dtype)
        assert_close(F.group_normalization(x, 1, gamma, beta),
                     F.layer_normalization(x, gamma, beta).array, dtype)

    def test_samples_are_independent(self, dtype):
        x = _x(dtype)
        ones, zeros = numpy.ones(6, dtype), numpy.zeros(6, dtype)
        y = F.group_normalization(x, 2, ones, zeros).array
        x2 = x.copy()
        x2[1] *= 3
        y2 = F.group_normalization(x2, 2, ones, zeros).array
        numpy.testing.assert_array_equal(y[0], y2[0])

    def test_gradients_of_gamma_and_beta(self, dtype):
        x = chainer.Variable(_x(dtype))
        gamma = chainer.Variable(numpy.linspace(0.5, 1.5, 6).astype(dtype))
        beta = chainer.Variable(numpy.zeros(6, dtype))
        y = F.group_normalization(x, 3, gamma, beta)
        gy = numpy.random.RandomState(1).uniform(-1, 1, x.shape).astype(
            dtype)
        gx, ggamma, gbeta = grads(y, (x, gamma, beta), gy)
        xhat = _standardized(x.array.reshape(2, 3, -1), (2,)).reshape(
            x.shape)
        gy64 = gy.astype('f8')
        assert_close(gbeta, gy64.sum(axis=(0, 2, 3)), dtype)
        assert_close(ggamma, (gy64 * xhat).sum(axis=(0, 2, 3)), dtype)
        # Each group's gradient sums to zero (shift invariance).
        assert_sums_to_zero(gx.reshape(2, 3, -1), 2, dtype)

    def test_groups_must_divide_the_channels(self, dtype):
        x = _x(dtype)
        with pytest.raises(TypeError, match='groups'):
            F.group_normalization(x, 4, numpy.ones(6, dtype),
                                  numpy.zeros(6, dtype))
