"""sqrt and rsqrt: values, NaN below zero, gradients."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestSqrt:

    def test_known_values(self, dtype):
        y = F.sqrt(typed([0, 1, 4, 0.25], dtype))
        assert y.dtype == dtype
        assert_close(y, [0, 1, 2, 0.5], dtype)

    def test_negative_is_nan(self, dtype):
        with numpy.errstate(invalid='ignore'):
            y = F.sqrt(typed([-1], dtype))
        assert numpy.isnan(y.array).all()

    def test_gradient(self, dtype):
        x = chainer.Variable(typed([1, 4, 0.25], dtype))
        gx, = grads(F.sqrt(x), (x,))
        assert_close(gx, [0.5, 0.25, 1], dtype)


@dtype_param
class TestRsqrt:

    def test_known_values(self, dtype):
        y = F.rsqrt(typed([1, 4, 0.25], dtype))
        assert y.dtype == dtype
        assert_close(y, [1, 0.5, 2], dtype)

    def test_gradient(self, dtype):
        # d/dx x^(-1/2) = -x^(-3/2) / 2
        x = chainer.Variable(typed([1, 4, 0.25], dtype))
        gx, = grads(F.rsqrt(x), (x,))
        assert_close(gx, [-0.5, -1 / 16, -4], dtype)
