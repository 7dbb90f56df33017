"""unpooling_2d: pixels copied over their windows, Chainer's output size
(2 h - 1 for ksize 2 with the default cover_all), outsize, and gradients
that sum the windows."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype):
    return numpy.array([[[[1, 2], [3, 4]]]], dtype)


@dtype_param
class TestUnpooling2D:

    def test_without_cover_all_copies_blocks(self, dtype):
        y = F.unpooling_2d(_x(dtype), 2, cover_all=False)
        assert y.shape == (1, 1, 4, 4) and y.dtype == dtype
        assert_close(y[0, 0], [[1, 1, 2, 2], [1, 1, 2, 2],
                               [3, 3, 4, 4], [3, 3, 4, 4]], dtype)

    def test_cover_all_default_drops_the_last_row_and_column(self, dtype):
        y = F.unpooling_2d(_x(dtype), 2)
        assert y.shape == (1, 1, 3, 3)
        assert_close(y[0, 0], [[1, 1, 2], [1, 1, 2], [3, 3, 4]], dtype)

    def test_outsize(self, dtype):
        y = F.unpooling_2d(_x(dtype), 2, outsize=(4, 3))
        assert_close(y[0, 0], [[1, 1, 2], [1, 1, 2], [3, 3, 4], [3, 3, 4]],
                     dtype)

    def test_overlapping_windows_add_up(self, dtype):
        y = F.unpooling_2d(_x(dtype), 3, stride=1, pad=1, cover_all=False)
        assert_close(y[0, 0], [[10, 10], [10, 10]], dtype)

    def test_gradient_sums_windows(self, dtype):
        x = chainer.Variable(_x(dtype))
        gy = numpy.arange(16, dtype=dtype).reshape(1, 1, 4, 4)
        gx, = grads(F.unpooling_2d(x, 2, cover_all=False), (x,), gy)
        assert_close(gx[0, 0], [[10, 18], [42, 50]], dtype)

    def test_double_backprop(self, dtype):
        x = chainer.Variable(_x(dtype))
        gy = chainer.Variable(numpy.ones((1, 1, 3, 3), dtype))
        gx, = chainer.grad([F.unpooling_2d(x, 2)], [x], [gy],
                           enable_double_backprop=True)
        ggy, = chainer.grad([gx], [gy], [_x(dtype)])
        assert_close(ggy[0, 0], [[1, 1, 2], [1, 1, 2], [3, 3, 4]], dtype)
