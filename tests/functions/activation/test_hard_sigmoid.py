"""hard_sigmoid: clip(0.2 x + 0.5, 0, 1), gradient 0.2 strictly inside
(-2.5, 2.5)."""
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestHardSigmoid:

    def test_values(self, dtype):
        y = F.hard_sigmoid(typed([-4, -2.5, -1, 0, 1.5, 2.5, 10], dtype))
        assert y.dtype == dtype
        assert_close(y, [0, 0, 0.3, 0.5, 0.8, 1, 1], dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(typed([-3, -2.5, 0, 2, 2.5, 3], dtype))
        gx, = grads(F.hard_sigmoid(x), (x,),
                    typed([1, 1, 1, 2, 1, 1], dtype))
        assert_close(gx, [0, 0, 0.2, 0.4, 0, 0], dtype)

    def test_double_backprop_is_linear_in_gy(self, dtype):
        x = chainer.Variable(typed([-3, 1], dtype))
        gy = chainer.Variable(typed([1, 1], dtype))
        gx, = chainer.grad([F.hard_sigmoid(x)], [x], [gy],
                           enable_double_backprop=True)
        ggx, ggy = chainer.grad([gx], [x, gy], [typed([1, 1], dtype)])
        assert ggx is None or not ggx.array.any()
        assert_close(ggy, [0, 0.2], dtype)
