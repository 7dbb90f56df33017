"""squared_error: elementwise (x0 - x1)^2 of the inputs' shape, gradients
+-2 (x0 - x1), second derivative 2."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

A = [[1, 2], [3, 4]]
B = [[1, 0], [5, 4.5]]


@dtype_param
class TestSquaredError:

    def test_elementwise(self, dtype):
        y = F.squared_error(typed(A, dtype), typed(B, dtype))
        assert y.shape == (2, 2) and y.dtype == dtype
        assert_close(y, [[0, 4], [4, 0.25]], dtype)

    def test_is_symmetric(self, dtype):
        a, b = typed(A, dtype), typed(B, dtype)
        assert_close(F.squared_error(a, b), F.squared_error(b, a).array,
                     dtype)

    def test_gradients(self, dtype):
        x0, x1 = chainer.Variable(typed(A, dtype)), \
            chainer.Variable(typed(B, dtype))
        g0, g1 = grads(F.squared_error(x0, x1), (x0, x1))
        assert_close(g0, [[0, 4], [-4, -1]], dtype)
        assert_close(g1, [[0, -4], [4, 1]], dtype)

    def test_second_derivative(self, dtype):
        x0 = chainer.Variable(typed(A, dtype))
        g0, = chainer.grad([F.squared_error(x0, typed(B, dtype))], [x0],
                           enable_double_backprop=True)
        gg, = grads(F.sum(g0), (x0,))
        assert_close(gg, numpy.full((2, 2), 2.0), dtype)
