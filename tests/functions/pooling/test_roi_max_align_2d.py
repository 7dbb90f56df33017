"""roi_max_align_2d: the largest bilinearly interpolated sample point per
bin, -inf for bins with no point inside, gradients around the chosen
points."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _ramp(dtype):
    """Pixel (h, w) holds (h + w) / 8."""
    h, w = numpy.meshgrid(numpy.arange(6), numpy.arange(8), indexing='ij')
    return ((h + w) / 8).astype(dtype)[None, None]


@dtype_param
class TestROIMaxAlign2D:

    def test_maximum_is_the_last_sample_point(self, dtype):
        # On an increasing ramp the maximum of a bin is its bottom-right
        # sample point: with 2 x 2 points per bin of size 2, at +1.5.
        rois = numpy.array([[0, 0, 4, 4]], dtype)
        y = F.roi_max_align_2d(_ramp(dtype), rois,
                               numpy.array([0], numpy.int32), 2, 1.0,
                               sampling_ratio=2)
        assert y.shape == (1, 1, 2, 2) and y.dtype == dtype
        assert_close(y[0, 0], numpy.array([[3, 5], [5, 7]]) / 8, dtype)

    def test_bins_off_the_image_are_minus_infinity(self, dtype):
        rois = numpy.array([[-10, 0, -6, 4]], dtype)
        y = F.roi_max_align_2d(_ramp(dtype), rois,
                               numpy.array([0], numpy.int32), 1, 1.0)
        assert numpy.isneginf(y.array).all()

    def test_gradient_spreads_around_the_chosen_point(self, dtype):
        x = chainer.Variable(_ramp(dtype))
        rois = numpy.array([[0, 0, 2, 2]], dtype)
        gx, = grads(F.roi_max_align_2d(x, rois, numpy.array([0], numpy.int32),
                                       1, 1.0, sampling_ratio=2), (x,))
        # The chosen point (1.5, 1.5) is read from four pixels equally.
        expected = numpy.zeros((6, 8))
        expected[1:3, 1:3] = 0.25
        assert_close(gx[0, 0], expected, dtype)

    def test_agrees_with_average_align_for_one_point_per_bin(self, dtype):
        x = numpy.random.RandomState(0).uniform(-1, 1, (2, 3, 6, 8)).astype(
            dtype)
        rois = numpy.array([[0.5, 1.5, 5, 7], [1, 0, 3, 4]], dtype)
        idx = numpy.array([1, 0], numpy.int32)
        y = F.roi_max_align_2d(x, rois, idx, (2, 3), 1.0, sampling_ratio=1)
        z = F.roi_average_align_2d(x, rois, idx, (2, 3), 1.0,
                                   sampling_ratio=1)
        assert_close(y, z.array, dtype)
