"""roi_average_align_2d: regions (y_min, x_min, y_max, x_max) with a batch
index each, bins averaged over bilinearly interpolated sample points, and
sampling_ratio."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _ramp(dtype, shape=(2, 1, 6, 8)):
    """Pixel (h, w) holds w / 8 (sample 0) or h / 8 (sample 1)."""
    n, c, h, w = shape
    x = numpy.empty(shape)
    x[0] = numpy.arange(w)[None, None, :] / 8
    x[1] = numpy.arange(h)[None, :, None] / 8
    return x.astype(dtype)


@dtype_param
class TestROIAverageAlign2D:

    def test_linear_image_gives_the_bin_centres(self, dtype):
        # Inside the image, interpolating a ramp is exact, so each bin
        # averages to the ramp at the bin centre.
        rois = numpy.array([[1, 1, 5, 7], [0.5, 2, 4.5, 6]], dtype)
        idx = numpy.array([0, 1], numpy.int32)
        y = F.roi_average_align_2d(_ramp(dtype), rois, idx, (2, 3), 1.0)
        assert y.shape == (2, 1, 2, 3) and y.dtype == dtype
        assert_close(y[0, 0], numpy.tile([2, 4, 6], (2, 1)) / 8, dtype)
        assert_close(y[1, 0], numpy.tile([[1.5], [3.5]], (1, 3)) / 8, dtype)

    def test_sampling_ratio(self, dtype):
        # One sample per bin reads the bin centre; the default grid of
        # ceil(bin size) points agrees on a ramp.
        rois = numpy.array([[0, 0.5, 4, 6.5]], dtype)
        idx = numpy.array([0], numpy.int32)
        for ratio in (None, 1, (2, 3)):
            y = F.roi_average_align_2d(_ramp(dtype), rois, idx, 2, 1.0,
                                       sampling_ratio=ratio)
            assert_close(y[0, 0], [[2, 5], [2, 5]] / numpy.array(8.0), dtype)

    def test_spatial_scale(self, dtype):
        rois = numpy.array([[2, 2, 10, 14]], dtype)
        y = F.roi_average_align_2d(_ramp(dtype), rois,
                                   numpy.array([0], numpy.int32), 1, 0.5)
        assert_close(y.array.ravel(), [4 / 8], dtype)

    def test_points_past_the_edge(self, dtype):
        # Points within one pixel outside read the edge pixel; points
        # farther out count as zero in the mean.
        x = numpy.ones((1, 1, 4, 4), dtype)
        rois = numpy.array([[-0.8, 0, 0.2, 4], [-4, 0, 0, 4]], dtype)
        y = F.roi_average_align_2d(x, rois, numpy.array([0, 0], numpy.int32),
                                   1, 1.0, sampling_ratio=(2, 1))
        assert_close(y.array.ravel(), [1, 0.5], dtype)

    def test_gradient_is_the_adjoint(self, dtype):
        x = chainer.Variable(_ramp(dtype))
        rois = numpy.array([[0.3, 1.2, 4.7, 6.1], [1, 0, 5, 3]], dtype)
        idx = numpy.array([1, 1], numpy.int32)
        y = F.roi_average_align_2d(x, rois, idx, 2, 1.0)
        gy = numpy.random.RandomState(0).uniform(-1, 1, y.shape).astype(
            dtype)
        gx, = grads(y, (x,), gy)
        # Linear in x: <y, gy> == <x, gx>.
        lhs = (y.array.astype(numpy.float64) * gy).sum()
        rhs = (x.array.astype(numpy.float64) * gx).sum()
        assert abs(lhs - rhs) < (0.02 if dtype == numpy.float16 else 1e-6)
        assert (gx[0] == 0).all()
