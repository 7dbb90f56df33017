"""absolute: values, and a gradient of sign(x) that is 0 at 0."""
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed


@pytest.mark.parametrize('dtype', DTYPES)
class TestAbsolute:

    def test_known_values(self, dtype):
        y = F.absolute(typed([-2, 0, 1.5], dtype))
        assert y.dtype == dtype
        assert_close(y, [2, 0, 1.5], dtype)

    def test_gradient_is_the_sign(self, dtype):
        x = chainer.Variable(typed([-2, 0, 1.5], dtype))
        gx, = grads(F.absolute(x), (x,), typed([3, 3, 3], dtype))
        assert_close(gx, [-3, 0, 3], dtype)

    def test_second_derivative_is_zero(self, dtype):
        x = chainer.Variable(typed([-2, 1.5], dtype))
        gx, = chainer.grad([F.sum(F.absolute(x) * x)], [x],
                           enable_double_backprop=True)
        # d/dx (|x| x) = 2 |x|; its derivative is 2 sign(x).
        assert_close(gx.array, [4, 3], dtype)
        ggx, = chainer.grad([F.sum(gx)], [x])
        assert_close(ggx.array, [-2, 2], dtype)
