"""sinh and cosh: values, the identity cosh^2 - sinh^2 = 1, gradients."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestSinh:

    def test_known_values(self, dtype):
        y = F.sinh(typed([0, 1, -1], dtype))
        assert y.dtype == dtype
        s = (math.e - 1 / math.e) / 2
        assert_close(y, [0, s, -s], dtype)

    def test_gradient_is_cosh(self, dtype):
        x = chainer.Variable(typed([0, 1], dtype))
        gx, = grads(F.sinh(x), (x,))
        assert_close(gx, [1, (math.e + 1 / math.e) / 2], dtype)


@dtype_param
class TestCosh:

    def test_known_values(self, dtype):
        y = F.cosh(typed([0, 1, -1], dtype))
        assert y.dtype == dtype
        c = (math.e + 1 / math.e) / 2
        assert_close(y, [1, c, c], dtype)

    def test_gradient_is_sinh(self, dtype):
        x = chainer.Variable(typed([0, 1], dtype))
        gx, = grads(F.cosh(x), (x,))
        assert_close(gx, [0, (math.e - 1 / math.e) / 2], dtype)


def test_cosh_squared_minus_sinh_squared_is_one():
    x = numpy.linspace(-2, 2, 5)
    c, s = F.cosh(x).array, F.sinh(x).array
    numpy.testing.assert_allclose(c * c - s * s, 1, rtol=1e-14)
