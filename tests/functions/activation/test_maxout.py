"""maxout: the maximum over consecutive groups of pool_size along axis;
tied maxima all receive the group's gradient."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestMaxout:

    def test_groups_are_consecutive(self, dtype):
        x = typed([[1, 5, 2, 0, -1, -3]], dtype)
        y = F.maxout(x, 3)
        assert y.dtype == dtype
        assert_close(y, [[5, 0]], dtype)
        assert_close(F.maxout(x, 2), [[5, 2, -1]], dtype)

    @pytest.mark.parametrize('axis', [0, 1, 2, -1])
    def test_axis(self, dtype, axis):
        x = numpy.random.RandomState(0).uniform(-1, 1, (4, 4, 4)).astype(
            dtype)
        y = F.maxout(x, 2, axis=axis)
        a = axis % 3
        shape = x.shape[:a] + (2, 2) + x.shape[a + 1:]
        assert y.shape == x.shape[:a] + (2,) + x.shape[a + 1:]
        assert_close(y, x.reshape(shape).max(axis=a + 1), dtype)

    @pytest.mark.parametrize('pool_size', [5, 20])
    def test_long_groups(self, dtype, pool_size):
        x = numpy.random.RandomState(1).permutation(3 * 2 * pool_size)
        x = x.reshape(3, 2 * pool_size).astype(dtype)
        y = F.maxout(x, pool_size)
        assert_close(y, x.reshape(3, 2, pool_size).max(axis=2), dtype)

    def test_pool_size_1_is_identity(self, dtype):
        x = typed([[1, -2, 3]], dtype)
        assert_close(F.maxout(x, 1), x, dtype)

    def test_gradient_goes_to_the_maxima(self, dtype):
        x = chainer.Variable(typed([[1, 5, 2, 4, 4, 0]], dtype))
        gx, = grads(F.maxout(x, 3), (x,), typed([[10, 20]], dtype))
        assert_close(gx, [[0, 10, 0, 20, 20, 0]], dtype)

    def test_double_backprop_is_linear_in_gy(self, dtype):
        x = chainer.Variable(typed([[1, 5, 3, 2]], dtype))
        gy = chainer.Variable(typed([[1, 1]], dtype))
        gx, = chainer.grad([F.maxout(x, 2)], [x], [gy],
                           enable_double_backprop=True)
        ggx, ggy = chainer.grad([gx], [x, gy], [typed([[1, 2, 3, 4]], dtype)])
        assert ggx is None or not ggx.array.any()
        assert_close(ggy, [[2, 3]], dtype)

    @pytest.mark.parametrize('pool_size', [0, -2])
    def test_pool_size_must_be_positive(self, dtype, pool_size):
        with pytest.raises(ValueError, match='maxout.*pool_size'):
            F.maxout(typed([[1, 2]], dtype), pool_size)
