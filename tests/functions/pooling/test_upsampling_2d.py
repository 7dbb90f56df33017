"""upsampling_2d: values put back where max_pooling_2d found its maxima,
and gradients read from there."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype):
    return numpy.array([[[[1, 5, 2, 0],
                          [4, 0, 7, 1],
                          [2, 8, 3, 6],
                          [0, 1, 2, 9]]]], dtype)


@dtype_param
class TestUpsampling2D:

    def test_restores_the_maxima_in_place(self, dtype):
        x = _x(dtype)
        y, indexes = F.max_pooling_2d(x, 2, cover_all=False,
                                      return_indices=True)
        up = F.upsampling_2d(y, indexes, 2, outsize=(4, 4), cover_all=False)
        assert up.shape == (1, 1, 4, 4) and up.dtype == dtype
        assert_close(up, numpy.where(x == F.unpooling_2d(
            y, 2, cover_all=False).array, x, 0), dtype)

    def test_default_output_size_follows_cover_all(self, dtype):
        y = numpy.ones((1, 1, 2, 2), dtype)
        indexes = numpy.zeros((1, 1, 2, 2), numpy.int32)
        assert F.upsampling_2d(y, indexes, 2).shape == (1, 1, 3, 3)
        assert F.upsampling_2d(y, indexes, 2, cover_all=False).shape == \
            (1, 1, 4, 4)

    def test_indexes_pick_the_tap(self, dtype):
        y = numpy.array([[[[1, 2]]]], dtype)
        indexes = numpy.array([[[[3, 1]]]], numpy.int32)
        up = F.upsampling_2d(y, indexes, 2, cover_all=False)
        assert_close(up[0, 0], [[0, 0, 0, 2], [0, 1, 0, 0]], dtype)

    def test_gradient_reads_at_the_taps(self, dtype):
        y = chainer.Variable(numpy.ones((1, 1, 1, 2), dtype))
        indexes = numpy.array([[[[3, 1]]]], numpy.int32)
        gy = numpy.arange(8, dtype=dtype).reshape(1, 1, 2, 4)
        gx, = grads(F.upsampling_2d(y, indexes, 2, cover_all=False), (y,),
                    gy)
        assert_close(gx[0, 0], [[5, 3]], dtype)

    def test_indexes_out_of_range_are_refused(self, dtype):
        with pytest.raises(ValueError, match='indexes'):
            F.upsampling_2d(numpy.ones((1, 1, 1, 1), dtype),
                            numpy.array([[[[4]]]], numpy.int32), 2)
