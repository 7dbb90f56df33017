"""square: values and gradient."""
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed


@pytest.mark.parametrize('dtype', DTYPES)
class TestSquare:

    def test_known_values(self, dtype):
        y = F.square(typed([0, -3, 0.5], dtype))
        assert y.dtype == dtype
        assert_close(y, [0, 9, 0.25], dtype)

    def test_gradient_is_twice_the_input(self, dtype):
        x = chainer.Variable(typed([0, -3, 0.5], dtype))
        gx, = grads(F.square(x), (x,))
        assert_close(gx, [0, -6, 1], dtype)

    def test_second_derivative_is_two(self, dtype):
        x = chainer.Variable(typed([1, -2], dtype))
        gx, = chainer.grad([F.sum(F.square(x))], [x],
                           enable_double_backprop=True)
        ggx, = chainer.grad([F.sum(gx)], [x])
        assert_close(ggx.array, [2, 2], dtype)
