"""clip: values, open bounds (None), the gradient (1 inside the interval,
its edges included, 0 outside), and parameter checks."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

X = [-2, -1, -0.5, 0, 1, 2]


@pytest.mark.parametrize('dtype', DTYPES)
class TestClip:

    def test_values(self, dtype):
        y = F.clip(typed(X, dtype), -1.0, 1.0)
        assert y.dtype == dtype
        assert_close(y, [-1, -1, -0.5, 0, 1, 1], dtype)

    def test_open_bounds(self, dtype):
        assert_close(F.clip(typed(X, dtype), None, 0.0),
                     [-2, -1, -0.5, 0, 0, 0], dtype)
        assert_close(F.clip(typed(X, dtype), 0.0, None),
                     [0, 0, 0, 0, 1, 2], dtype)

    def test_gradient_passes_inside_and_at_the_edges(self, dtype):
        x = chainer.Variable(typed(X, dtype))
        gx, = grads(F.clip(x, -1.0, 1.0), (x,))
        assert_close(gx, [0, 1, 1, 1, 1, 0], dtype)

    def test_gradient_with_an_open_bound(self, dtype):
        x = chainer.Variable(typed(X, dtype))
        gx, = grads(F.clip(x, None, 0.0), (x,))
        assert_close(gx, [1, 1, 1, 1, 0, 0], dtype)

    def test_integer_bounds(self, dtype):
        assert_close(F.clip(typed(X, dtype), -1, 1),
                     [-1, -1, -0.5, 0, 1, 1], dtype)


@pytest.mark.parametrize('x_min, x_max, error', [
    (1.0, 1.0, ValueError),
    (2.0, 1.0, ValueError),
    (None, None, ValueError),
    ('0', 1.0, TypeError),
    (0.0, numpy.ones(2), TypeError),
])
def test_bad_bounds(x_min, x_max, error):
    with pytest.raises(error, match='clip'):
        F.clip(numpy.zeros(3, numpy.float32), x_min, x_max)
