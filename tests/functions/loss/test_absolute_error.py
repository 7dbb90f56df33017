"""absolute_error: elementwise |x0 - x1| of the inputs' shape, gradients
+-sign(x0 - x1) (0 where equal)."""
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

A = [[1, 2], [3, 4]]
B = [[1, 0], [5, 4.5]]


@dtype_param
class TestAbsoluteError:

    def test_elementwise(self, dtype):
        y = F.absolute_error(typed(A, dtype), typed(B, dtype))
        assert y.shape == (2, 2) and y.dtype == dtype
        assert_close(y, [[0, 2], [2, 0.5]], dtype)

    def test_gradients(self, dtype):
        x0, x1 = chainer.Variable(typed(A, dtype)), \
            chainer.Variable(typed(B, dtype))
        g0, g1 = grads(F.absolute_error(x0, x1), (x0, x1))
        assert_close(g0, [[0, 1], [-1, -1]], dtype)
        assert_close(g1, [[0, -1], [1, 1]], dtype)

    def test_gradient_weighted_by_gy(self, dtype):
        x0 = chainer.Variable(typed(A, dtype))
        g0, = grads(F.absolute_error(x0, typed(B, dtype)), (x0,),
                    typed([[5, 6], [7, 8]], dtype))
        assert_close(g0, [[0, 6], [-7, -8]], dtype)
