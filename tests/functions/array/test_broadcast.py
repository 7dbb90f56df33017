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


@dtype_param
class TestBroadcast:

    def test_common_shape(self, dtype):
        x = numpy.arange(3).reshape(3, 1).astype(dtype)
        y = numpy.arange(4).astype(dtype)
        bx, by = F.broadcast(x, y)
        assert bx.shape == by.shape == (3, 4)
        assert_close(bx, numpy.repeat(x, 4, axis=1), dtype)
        assert_close(by, numpy.tile(y, (3, 1)), dtype)

    def test_single_argument_gives_a_variable(self, dtype):
        x = numpy.ones((2, 3), dtype=dtype)
        y = F.broadcast(x)
        assert isinstance(y, chainer.Variable)
        assert y.shape == (2, 3)

    def test_dtypes_may_differ(self, dtype):
        bx, bi = F.broadcast(numpy.ones((2, 1), dtype=dtype),
                             numpy.arange(3, dtype=numpy.int32))
        assert bx.dtype == dtype
        assert bi.dtype == numpy.int32
        assert bi.shape == (2, 3)

    def test_gradients_sum_over_broadcast_axes(self, dtype):
        x = chainer.Variable(numpy.ones((3, 1), dtype=dtype))
        y = chainer.Variable(numpy.ones((4,), dtype=dtype))
        bx, by = F.broadcast(x, y)
        g = numpy.arange(12).reshape(3, 4).astype(dtype)
        gx, gy = chainer.grad([bx, by], [x, y], [g, 2 * g])
        assert_close(gx.array, g.sum(axis=1, keepdims=True), dtype)
        assert_close(gy.array, 2 * g.sum(axis=0), dtype)

    def test_unused_output_gets_no_gradient(self, dtype):
        x = chainer.Variable(numpy.ones((3, 1), dtype=dtype))
        y = chainer.Variable(numpy.ones((4,), dtype=dtype))
        bx, _ = F.broadcast(x, y)
        gx, gy = chainer.grad([bx], [x, y],
                              [numpy.ones((3, 4), dtype=dtype)])
        assert_close(gx.array, numpy.full((3, 1), 4), dtype)
        assert gy is None

    def test_incompatible_shapes(self, dtype):
        with pytest.raises(TypeError, match='Broadcast'):
            F.broadcast(numpy.ones((2, 3), dtype=dtype),
                        numpy.ones((4,), dtype=dtype))
