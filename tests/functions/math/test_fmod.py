"""fmod: C's remainder (the sign of the dividend, unlike Python's %), its
gradients 1 and -fix(x / d), broadcasting."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed


@pytest.mark.parametrize('dtype', DTYPES)
class TestFmod:

    def test_sign_follows_the_dividend(self, dtype):
        y = F.fmod(typed([5.5, -5.5, 5.5, -5.5], dtype),
                   typed([2, 2, -2, -2], dtype))
        assert y.dtype == dtype
        assert_close(y, [1.5, -1.5, 1.5, -1.5], dtype)

    def test_gradients(self, dtype):
        x = chainer.Variable(typed([5.5, -5.5, 0.5], dtype))
        d = chainer.Variable(typed([2, 2, 2], dtype))
        gx, gd = grads(F.fmod(x, d), (x, d))
        assert_close(gx, [1, 1, 1], dtype)
        assert_close(gd, [-2, 2, 0], dtype)

    def test_broadcast_gradients_keep_shapes(self, dtype):
        x = chainer.Variable(typed([[5.5, 3.5], [-7.5, 1.5]], dtype))
        d = chainer.Variable(typed([2], dtype))
        y = F.fmod(x, d)
        assert y.shape == (2, 2)
        gx, gd = grads(y, (x, d))
        assert gx.shape == (2, 2) and gd.shape == (1,)
        # -(fix(2.75) + fix(1.75) + fix(-3.75) + fix(0.75)) = -(2 + 1 - 3)
        assert_close(gd, [0], dtype)


def test_matches_math_fmod():
    import math
    x = numpy.array([7.25, -7.25, 0.5, -0.0])
    d = numpy.array([1.5, 1.5, -0.3, 2.0])
    expected = [math.fmod(a, b) for a, b in zip(x, d)]
    numpy.testing.assert_array_equal(F.fmod(x, d).array, expected)
