"""cumprod: values, and gradients that stay exact where inputs are zero
(no division), to second order."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import gradient_check

from .. import DTYPES, assert_close, grads, typed


@pytest.mark.parametrize('dtype', DTYPES)
class TestCumprod:

    def test_values(self, dtype):
        x = typed([[1, 2, 3], [-1, 0.5, 4]], dtype)
        assert_close(F.cumprod(x, axis=1), [[1, 2, 6], [-1, -0.5, -2]],
                     dtype)
        assert_close(F.cumprod(x, axis=0), [[1, 2, 3], [-1, 1, 12]], dtype)

    def test_axis_none_flattens(self, dtype):
        y = F.cumprod(typed([[1, 2], [3, 4]], dtype))
        assert y.shape == (4,)
        assert_close(y, [1, 2, 6, 24], dtype)

    def test_gradient(self, dtype):
        # y = (a, ab, abc): dy/da = 1 + b + bc, dy/db = a + ac, dy/dc = ab.
        x = chainer.Variable(typed([2, 3, 4], dtype))
        gx, = grads(F.cumprod(x, axis=0), (x,))
        assert_close(gx, [16, 10, 6], dtype)

    def test_gradient_with_a_zero(self, dtype):
        x = chainer.Variable(typed([2, 0, 4], dtype))
        gx, = grads(F.cumprod(x, axis=0), (x,))
        assert_close(gx, [1, 10, 0], dtype)


def test_double_backprop_with_zeros():
    x = numpy.array([[0.0, 2.0, 0.0, 3.0], [1.5, 0.0, -1.0, 0.5]])
    gy = numpy.linspace(-1, 1, 8).reshape(2, 4)
    ggx = numpy.linspace(1, -0.5, 8).reshape(2, 4)
    for axis in (0, 1, -1):
        gradient_check.check_backward(
            lambda v, a=axis: F.cumprod(v, axis=a), x, gy)
        gradient_check.check_double_backward(
            lambda v, a=axis: F.cumprod(v, axis=a), x, gy, ggx)
