"""gaussian_kl_divergence: zero for the standard normal, the closed form,
reduce='sum' and 'no', and the gradients mu and (sigma^2 - 1) / 2."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

MEAN = [[0, 1], [-2, 0.5]]
LN_VAR = [[0, math.log(2)], [-1, 0.5]]


def _ref():
    m, v = numpy.array(MEAN), numpy.array(LN_VAR)
    return (m ** 2 + numpy.exp(v) - v - 1) / 2


@dtype_param
class TestGaussianKLDivergence:

    def test_standard_normal_gives_zero(self, dtype):
        zero = numpy.zeros((2, 3), dtype)
        assert_close(F.gaussian_kl_divergence(zero, zero), 0, dtype)

    def test_sum(self, dtype):
        loss = F.gaussian_kl_divergence(typed(MEAN, dtype),
                                        typed(LN_VAR, dtype))
        assert loss.shape == () and loss.dtype == dtype
        assert_close(loss, _ref().sum(), dtype)

    def test_reduce_no(self, dtype):
        loss = F.gaussian_kl_divergence(typed(MEAN, dtype),
                                        typed(LN_VAR, dtype), reduce='no')
        assert loss.shape == (2, 2)
        assert_close(loss, _ref(), dtype)

    def test_gradients(self, dtype):
        m = chainer.Variable(typed(MEAN, dtype))
        v = chainer.Variable(typed(LN_VAR, dtype))
        gm, gv = grads(F.gaussian_kl_divergence(m, v), (m, v))
        assert_close(gm, MEAN, dtype)
        assert_close(gv, (numpy.exp(LN_VAR) - 1) / 2, dtype)

    def test_bad_reduce(self, dtype):
        with pytest.raises(ValueError, match='reduce'):
            F.gaussian_kl_divergence(typed(MEAN, dtype),
                                     typed(LN_VAR, dtype), reduce='mean')
