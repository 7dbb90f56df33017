"""minimum: values, gradients (ties go to x1, as in Chainer),
broadcasting."""
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed


@pytest.mark.parametrize('dtype', DTYPES)
class TestMinimum:

    def test_values(self, dtype):
        y = F.minimum(typed([1, -2, 3], dtype), typed([2, -3, 3], dtype))
        assert y.dtype == dtype
        assert_close(y, [1, -3, 3], dtype)

    def test_gradient_goes_to_the_smaller_and_ties_to_x1(self, dtype):
        a = chainer.Variable(typed([1, -2, 3], dtype))
        b = chainer.Variable(typed([2, -3, 3], dtype))
        ga, gb = grads(F.minimum(a, b), (a, b))
        assert_close(ga, [1, 0, 1], dtype)
        assert_close(gb, [0, 1, 0], dtype)

    def test_broadcast_gradients_are_summed(self, dtype):
        a = chainer.Variable(typed([[0], [5]], dtype))
        b = chainer.Variable(typed([1, 2, 6], dtype))
        y = F.minimum(a, b)
        assert_close(y, [[0, 0, 0], [1, 2, 5]], dtype)
        ga, gb = grads(y, (a, b))
        assert_close(ga, [[3], [1]], dtype)
        assert_close(gb, [1, 1, 0], dtype)
