"""roi_pooling_2d: regions (batch index, x_min, y_min, x_max, y_max)
scaled and rounded, split into bins, maximum per bin (0 when empty), and
gradients to the maxima."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype):
    # Two samples; pixel (h, w) of sample n holds 100 n + 10 h + w.
    h, w = numpy.meshgrid(numpy.arange(5), numpy.arange(6), indexing='ij')
    x = numpy.stack([10 * h + w, 100 + 10 * h + w])[:, None]
    return (x / 100).astype(dtype)


@dtype_param
class TestROIPooling2D:

    def test_whole_image_single_bin_is_the_maximum(self, dtype):
        rois = numpy.array([[0, 0, 0, 5, 4], [1, 0, 0, 5, 4]], dtype)
        y = F.roi_pooling_2d(_x(dtype), rois, 1, 1, 1.0)
        assert y.shape == (2, 1, 1, 1) and y.dtype == dtype
        assert_close(y.array.ravel(), [0.45, 1.45], dtype)

    def test_bins(self, dtype):
        # Region x 1..4, y 0..3 of sample 1: 4 x 4 pixels in 2 x 2 bins; the
        # maximum of each bin is its bottom-right pixel.
        rois = numpy.array([[1, 1, 0, 4, 3]], dtype)
        y = F.roi_pooling_2d(_x(dtype), rois, 2, 2, 1.0)
        assert_close(y[0, 0], numpy.array([[112, 114], [132, 134]]) / 100,
                     dtype)

    def test_spatial_scale_rounds_the_region(self, dtype):
        rois = numpy.array([[0, 2, 2, 6, 6]], dtype)
        y = F.roi_pooling_2d(_x(dtype), rois, 1, 1, 0.5)
        # Scaled to x 1..3, y 1..3.
        assert_close(y.array.ravel(), [0.33], dtype)

    def test_bins_off_the_image_are_zero(self, dtype):
        rois = numpy.array([[0, 4, 3, 9, 8]], dtype)
        y = F.roi_pooling_2d(_x(dtype), rois, 2, 2, 1.0)
        assert_close(y[0, 0], [[0.45, 0], [0, 0]], dtype)

    def test_gradient_goes_to_the_maxima(self, dtype):
        x = chainer.Variable(_x(dtype))
        rois = numpy.array([[1, 1, 0, 4, 3], [1, 0, 0, 5, 4]], dtype)
        gx, = grads(F.roi_pooling_2d(x, rois, 2, 2, 1.0), (x,))
        expected = numpy.zeros((2, 1, 5, 6))
        expected[1, 0, 1, 2] = expected[1, 0, 1, 4] = 1
        expected[1, 0, 3, 2] = expected[1, 0, 3, 4] = 1
        # The second region's bins end at rows 2 and 4, columns 2 and 5.
        expected[1, 0, 2, 2] += 1
        expected[1, 0, 2, 5] += 1
        expected[1, 0, 4, 2] += 1
        expected[1, 0, 4, 5] += 1
        assert_close(gx, expected, dtype)

    def test_batch_index_is_checked(self, dtype):
        rois = numpy.array([[2, 0, 0, 1, 1]], dtype)
        with pytest.raises(ValueError, match='batch index'):
            F.roi_pooling_2d(_x(dtype), rois, 1, 1, 1.0)
