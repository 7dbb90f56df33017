"""prod: values over axes, and gradients (the product of the other
elements) that stay exact where inputs are zero, to second order."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import gradient_check

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestProd:

    @pytest.mark.parametrize('axis, keepdims, expected', [
        (None, False, 72),
        (0, False, [-4, -6, 3]),
        (1, True, [[6], [12]]),
        ((0, 1), False, 72),
    ])
    def test_values(self, dtype, axis, keepdims, expected):
        y = F.prod(typed([[1, 2, 3], [-4, -3, 1]], dtype), axis=axis,
                   keepdims=keepdims)
        assert y.dtype == dtype
        assert_close(y, numpy.asarray(expected).reshape(y.shape), dtype)

    def test_gradient_is_the_product_of_the_others(self, dtype):
        x = chainer.Variable(typed([[1, 2, 3], [-4, -3, 1]], dtype))
        gx, = grads(F.prod(x, axis=1), (x,))
        assert_close(gx, [[6, 3, 2], [-3, -4, 12]], dtype)

    def test_gradient_with_zeros(self, dtype):
        x = chainer.Variable(typed([[2, 0, 3], [0, 5, 0]], dtype))
        gx, = grads(F.prod(x, axis=1), (x,))
        # One zero: only it gets a gradient; two zeros: none does.
        assert_close(gx, [[0, 6, 0], [0, 0, 0]], dtype)


def test_double_backprop_with_zeros():
    x = numpy.array([[2.0, 0.0, 3.0], [0.0, 0.5, -1.0]])
    gradient_check.check_double_backward(
        lambda v: F.prod(v, axis=(0, 1)), x, numpy.array(1.5),
        numpy.linspace(-1, 1, 6).reshape(2, 3), dtype=numpy.float64)
    gradient_check.check_double_backward(
        lambda v: F.prod(v, axis=0, keepdims=True), x,
        numpy.array([[1.0, -0.5, 2.0]]), numpy.ones((2, 3)))
