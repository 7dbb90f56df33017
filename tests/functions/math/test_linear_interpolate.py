"""linear_interpolate: the ends p = 0 and p = 1, gradients of p, x and
y."""
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed


@pytest.mark.parametrize('dtype', DTYPES)
class TestLinearInterpolate:

    def test_values(self, dtype):
        z = F.linear_interpolate(typed([0, 1, 0.25], dtype),
                                 typed([2, 2, 2], dtype),
                                 typed([-2, -2, -2], dtype))
        assert z.dtype == dtype
        assert_close(z, [-2, 2, -1], dtype)

    def test_gradients(self, dtype):
        p = chainer.Variable(typed([0, 0.25], dtype))
        x = chainer.Variable(typed([2, 3], dtype))
        y = chainer.Variable(typed([-2, 1], dtype))
        gp, gx, gy = grads(F.linear_interpolate(p, x, y), (p, x, y))
        assert_close(gp, [4, 2], dtype)
        assert_close(gx, [0, 0.25], dtype)
        assert_close(gy, [1, 0.75], dtype)

    def test_0dim_keeps_the_dtype(self, dtype):
        p, x, y = (chainer.Variable(typed(v, dtype)) for v in (0.25, 2, -2))
        z = F.linear_interpolate(p, x, y)
        assert z.dtype == dtype
        assert_close(z, -1, dtype)
        gs = grads(z, (p, x, y))
        assert [g.dtype for g in gs] == [dtype] * 3
        assert_close(gs[0], 4, dtype)
