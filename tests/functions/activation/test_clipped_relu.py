"""clipped_relu and relu6: capped at z (20 by default, 6 for relu6), with a
zero gradient at both kinks (Chainer passes it only where 0 < x < z)."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestClippedReLU:

    def test_values(self, dtype):
        y = F.clipped_relu(typed([-1, 0, 0.5, 2.5, 3], dtype), z=2.5)
        assert y.dtype == dtype
        assert_close(y, [0, 0, 0.5, 2.5, 2.5], dtype)

    def test_default_cap_is_20(self, dtype):
        assert_close(F.clipped_relu(typed([19, 21, 100], dtype)),
                     [19, 20, 20], dtype)

    def test_relu6(self, dtype):
        x = typed([-3, 0, 2, 6, 10], dtype)
        assert_close(F.relu6(x), [0, 0, 2, 6, 6], dtype)
        assert_close(F.relu6(x), F.clipped_relu(x, 6.0).array, dtype)

    def test_gradient_is_zero_at_both_kinks(self, dtype):
        x = chainer.Variable(typed([-1, 0, 1, 2, 3], dtype))
        gx, = grads(F.clipped_relu(x, 2), (x,), typed([1, 2, 3, 4, 5], dtype))
        assert_close(gx, [0, 0, 3, 0, 0], dtype)

    def test_integer_cap_accepted(self, dtype):
        assert_close(F.clipped_relu(typed([5], dtype), 3), [3], dtype)

    @pytest.mark.parametrize('z', [0, -1.0])
    def test_cap_must_be_positive(self, dtype, z):
        with pytest.raises(ValueError, match='clipped_relu.*z'):
            F.clipped_relu(typed([1], dtype), z)

    def test_double_backprop_is_linear_in_gy(self, dtype):
        x = chainer.Variable(typed([-1, 1, 7], dtype))
        gy = chainer.Variable(numpy.ones(3, dtype=dtype))
        gx, = chainer.grad([F.relu6(x)], [x], [gy],
                           enable_double_backprop=True)
        ggx, ggy = chainer.grad([gx], [x, gy], [numpy.ones(3, dtype=dtype)])
        assert ggx is None or not ggx.array.any()
        assert_close(ggy, [0, 1, 0], dtype)
