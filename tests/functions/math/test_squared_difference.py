"""squared_difference: values, gradients of both operands, broadcasting."""
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed


@pytest.mark.parametrize('dtype', DTYPES)
class TestSquaredDifference:

    def test_values(self, dtype):
        y = F.squared_difference(typed([1, 3, -1], dtype),
                                 typed([2, 1, -1], dtype))
        assert y.dtype == dtype
        assert_close(y, [1, 4, 0], dtype)

    def test_gradients_are_opposite(self, dtype):
        a = chainer.Variable(typed([1, 3], dtype))
        b = chainer.Variable(typed([2, 1], dtype))
        ga, gb = grads(F.squared_difference(a, b), (a, b))
        assert_close(ga, [-2, 4], dtype)
        assert_close(gb, [2, -4], dtype)

    def test_broadcast(self, dtype):
        a = chainer.Variable(typed([[1, 2], [3, 4]], dtype))
        b = chainer.Variable(typed([1], dtype))
        y = F.squared_difference(a, b)
        assert_close(y, [[0, 1], [4, 9]], dtype)
        _, gb = grads(y, (a, b))
        assert gb.shape == (1,)
        assert_close(gb, [-12], dtype)
