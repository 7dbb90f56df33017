"""relu: zero at and below the kink, with a zero gradient at exactly 0
(Chainer passes the gradient only where the output is positive)."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestReLU:

    def test_values(self, dtype):
        y = F.relu(typed([-2, -0.5, 0, 0.5, 3], dtype))
        assert y.dtype == dtype
        assert_close(y, [0, 0, 0, 0.5, 3], dtype)

    def test_gradient_is_zero_at_the_kink(self, dtype):
        x = chainer.Variable(typed([-1, 0, 2], dtype))
        gx, = grads(F.relu(x), (x,), typed([5, 6, 7], dtype))
        assert_close(gx, [0, 0, 7], dtype)

    def test_second_derivative_is_zero(self, dtype):
        x = chainer.Variable(typed([-1, 2], dtype))
        gy = chainer.Variable(numpy.ones(2, dtype=dtype))
        gx, = chainer.grad([F.relu(x)], [x], [gy],
                           enable_double_backprop=True)
        ggx, ggy = chainer.grad([gx], [x, gy],
                                [numpy.ones(2, dtype=dtype)])
        assert ggx is None or not ggx.array.any()
        assert_close(ggy, [0, 1], dtype)
