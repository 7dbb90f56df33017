"""mean_absolute_error: a 0-dim mean of |x0 - x1|, gradients
+-sign(x0 - x1) / size, and a zero second derivative."""
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

A = [[1, 2], [3, 4]]
B = [[1, 0], [5, 4.5]]


@dtype_param
class TestMeanAbsoluteError:

    def test_known_value_is_0dim(self, dtype):
        loss = F.mean_absolute_error(typed(A, dtype), typed(B, dtype))
        assert loss.shape == () and loss.dtype == dtype
        assert_close(loss, (0 + 2 + 2 + 0.5) / 4, dtype)

    def test_equal_inputs_give_zero(self, dtype):
        x = typed(A, dtype)
        assert_close(F.mean_absolute_error(x, x), 0, dtype)

    def test_gradients(self, dtype):
        x0, x1 = chainer.Variable(typed(A, dtype)), \
            chainer.Variable(typed(B, dtype))
        g0, g1 = grads(F.mean_absolute_error(x0, x1), (x0, x1))
        assert_close(g0, [[0, 0.25], [-0.25, -0.25]], dtype)
        assert_close(g1, [[0, -0.25], [0.25, 0.25]], dtype)

    def test_second_derivative_is_zero(self, dtype):
        x0 = chainer.Variable(typed(A, dtype))
        g0, = chainer.grad([F.mean_absolute_error(x0, typed(B, dtype))],
                           [x0], enable_double_backprop=True)
        gg, = grads(F.sum(g0 * g0), (x0,))
        # The gradient does not depend on x0 at all (None) or only through
        # a zero derivative.
        assert gg is None or not gg.any()
