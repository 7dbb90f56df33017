"""broadcast_to: NumPy's rules, and a gradient summed over the axes that
were added or stretched."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestBroadcastTo:

    def test_repeats_size_one_and_new_axes(self, dtype):
        x = numpy.array([[1], [2], [3]], dtype=dtype)
        y = F.broadcast_to(x, (2, 3, 4))
        assert y.shape == (2, 3, 4)
        assert y.dtype == dtype
        assert_close(y, numpy.tile(x, (2, 1, 4)), dtype)

    def test_from_0dim(self, dtype):
        y = F.broadcast_to(numpy.array(2, dtype=dtype), (2, 3))
        assert_close(y, numpy.full((2, 3), 2), dtype)

    def test_own_shape(self, dtype):
        x = numpy.arange(6).reshape(2, 3).astype(dtype)
        assert_close(F.broadcast_to(x, (2, 3)), x, dtype)

    def test_gradient_sums_over_broadcast_axes(self, dtype):
        x = chainer.Variable(numpy.ones((3, 1), dtype=dtype))
        gy = numpy.arange(24).reshape(2, 3, 4).astype(dtype)
        gx, = grads(F.broadcast_to(x, (2, 3, 4)), (x,), gy)
        assert gx.shape == (3, 1)
        assert_close(gx, gy.sum(axis=(0, 2))[:, None], dtype)
