"""gaussian_nll: the negative log-density of a diagonal Gaussian,
reduce='sum' and 'no', the gradients of x, mean and ln_var, and
parameters that broadcast against x."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

X = [[0, 1], [2, -1]]
MEAN = [[0, 0], [1, 1]]
LN_VAR = [[0, math.log(4)], [-1, 0.5]]


def _ref():
    x, m, v = (numpy.array(a) for a in (X, MEAN, LN_VAR))
    var = numpy.exp(v)
    return 0.5 * numpy.log(2 * math.pi * var) + (x - m) ** 2 / (2 * var)


@dtype_param
class TestGaussianNLL:

    def test_standard_normal_at_zero(self, dtype):
        zero = numpy.zeros((1,), dtype)
        assert_close(F.gaussian_nll(zero, zero, zero),
                     0.5 * math.log(2 * math.pi), dtype)

    def test_sum(self, dtype):
        loss = F.gaussian_nll(typed(X, dtype), typed(MEAN, dtype),
                              typed(LN_VAR, dtype))
        assert loss.shape == () and loss.dtype == dtype
        assert_close(loss, _ref().sum(), dtype)

    def test_reduce_no(self, dtype):
        loss = F.gaussian_nll(typed(X, dtype), typed(MEAN, dtype),
                              typed(LN_VAR, dtype), reduce='no')
        assert loss.shape == (2, 2)
        assert_close(loss, _ref(), dtype)

    def test_gradients(self, dtype):
        x, m, v = (chainer.Variable(typed(a, dtype))
                   for a in (X, MEAN, LN_VAR))
        gx, gm, gv = grads(F.gaussian_nll(x, m, v), (x, m, v))
        x_, m_, v_ = (numpy.array(a) for a in (X, MEAN, LN_VAR))
        scaled = (x_ - m_) * numpy.exp(-v_)
        assert_close(gx, scaled, dtype)
        assert_close(gm, -scaled, dtype)
        assert_close(gv, (1 - (x_ - m_) * scaled) / 2, dtype)

    def test_parameters_broadcast(self, dtype):
        x = chainer.Variable(typed(X, dtype))
        m = chainer.Variable(typed([0.5, -1], dtype))
        v = chainer.Variable(typed([[0.25]], dtype))
        loss = F.gaussian_nll(x, m, v, reduce='no')
        assert loss.shape == (2, 2)
        full = F.gaussian_nll(x, numpy.broadcast_to(m.array, (2, 2)),
                              numpy.broadcast_to(v.array, (2, 2)),
                              reduce='no')
        assert_close(loss, full.array, dtype)
        gx, gm, gv = grads(F.gaussian_nll(x, m, v), (x, m, v))
        assert gm.shape == (2,) and gv.shape == (1, 1)
        x_ = typed(X, dtype).astype(numpy.float64)
        scaled = (x_ - m.array.astype(numpy.float64)) * numpy.exp(-0.25)
        assert_close(gm, -scaled.sum(axis=0), dtype)

    def test_bad_reduce(self, dtype):
        with pytest.raises(ValueError, match='reduce'):
            F.gaussian_nll(typed(X, dtype), typed(MEAN, dtype),
                           typed(LN_VAR, dtype), reduce='mean')
