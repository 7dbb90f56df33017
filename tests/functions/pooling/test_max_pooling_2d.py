"""max_pooling_2d: window maxima with -inf padding, Chainer's cover_all
default, stride None, return_indices, and gradients through the maxima."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype):
    return numpy.array([[[[1, 5, 2, 0, 3],
                          [4, 0, 7, 1, 1],
                          [2, 8, 3, 6, 0],
                          [0, 1, 2, 9, 4],
                          [3, 2, 0, 5, 6]]]], dtype)


@dtype_param
class TestMaxPooling2D:

    def test_cover_all_is_the_default(self, dtype):
        y = F.max_pooling_2d(_x(dtype), 2)
        assert y.shape == (1, 1, 3, 3) and y.dtype == dtype
        assert_close(y[0, 0], [[5, 7, 3], [8, 9, 4], [3, 5, 6]], dtype)

    def test_without_cover_all(self, dtype):
        y = F.max_pooling_2d(_x(dtype), 2, cover_all=False)
        assert_close(y[0, 0], [[5, 7], [8, 9]], dtype)

    def test_padding_never_wins(self, dtype):
        y = F.max_pooling_2d(-1 - _x(dtype), 3, stride=2, pad=1)
        assert y.shape == (1, 1, 3, 3)
        assert_close(y[0, 0, 0, 0], -1, dtype)
        assert (y.array < 0).all()

    def test_stride_and_rectangular_window(self, dtype):
        y = F.max_pooling_2d(_x(dtype), (2, 3), stride=(3, 1),
                             cover_all=False)
        assert_close(y[0, 0], [[7, 7, 7], [3, 9, 9]], dtype)

    def test_return_indices(self, dtype):
        y, indexes = F.max_pooling_2d(_x(dtype), 2, return_indices=True)
        assert isinstance(indexes, numpy.ndarray)
        assert indexes.shape == y.shape
        # Taps are ky * 2 + kx within each window.
        assert (indexes[0, 0] == [[1, 2, 0], [1, 3, 2], [0, 1, 0]]).all()

    def test_ties_pick_the_first_tap(self, dtype):
        y, indexes = F.max_pooling_2d(numpy.ones((1, 1, 2, 2), dtype), 2,
                                      return_indices=True)
        assert indexes[0, 0, 0, 0] == 0

    def test_gradient_goes_to_the_maxima(self, dtype):
        x = chainer.Variable(_x(dtype))
        gy = numpy.arange(1, 5, dtype=dtype).reshape(1, 1, 2, 2)
        gx, = grads(F.max_pooling_2d(x, 2, cover_all=False), (x,), gy)
        expected = numpy.zeros((5, 5))
        expected[0, 1], expected[1, 2], expected[2, 1], expected[3, 3] = \
            1, 2, 3, 4
        assert_close(gx[0, 0], expected, dtype)

    def test_overlapping_windows_add_gradients(self, dtype):
        x = chainer.Variable(_x(dtype))
        gx, = grads(F.max_pooling_2d(x, 3, stride=1), (x,))
        # 8 and 9 are the maxima of four 3x3 windows each, 7 of one.
        assert gx[0, 0, 2, 1] == 4 and gx[0, 0, 3, 3] == 4
        assert gx[0, 0, 1, 2] == 1 and gx.sum() == 9

    def test_double_backprop_reads_at_the_maxima(self, dtype):
        x = chainer.Variable(_x(dtype))
        gy = chainer.Variable(numpy.ones((1, 1, 2, 2), dtype))
        gx, = chainer.grad([F.max_pooling_2d(x, 2, cover_all=False)], [x],
                           [gy], enable_double_backprop=True)
        ggx = numpy.arange(25, dtype=dtype).reshape(1, 1, 5, 5)
        ggy, = chainer.grad([gx], [gy], [ggx])
        assert_close(ggy[0, 0], [[1, 7], [11, 18]], dtype)
