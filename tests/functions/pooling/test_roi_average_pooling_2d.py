"""roi_average_pooling_2d: a worked example, zeros in empty bins, and the
gradient spread evenly over each bin."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads


@pytest.mark.parametrize('dtype', DTYPES)
class TestROIAveragePooling2D:

    def test_bins(self, dtype):
        x = numpy.arange(16, dtype=dtype).reshape(1, 1, 4, 4)
        rois = numpy.array([[0, 0, 4, 4], [1, 1, 3, 4]], dtype)
        y = F.roi_average_pooling_2d(x, rois, numpy.array([0, 0], 'i'),
                                     (2, 2), 1.0)
        assert y.dtype == dtype
        assert_close(y, [[[[2.5, 4.5], [10.5, 12.5]]],
                         [[[5.5, 6.5], [9.5, 10.5]]]], dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(numpy.zeros((2, 1, 4, 4), dtype))
        y = F.roi_average_pooling_2d(x, numpy.array([[0, 0, 2, 4]], dtype),
                                     numpy.array([1], 'i'), (1, 2), 1.0)
        gx, = grads(y, (x,))
        expected = numpy.zeros((2, 1, 4, 4))
        expected[1, 0, :2, :] = 0.25
        assert_close(gx, expected, dtype)


def test_empty_bins_are_zero():
    x = numpy.ones((1, 1, 4, 4))
    y = F.roi_average_pooling_2d(x, numpy.array([[5.0, 5.0, 8.0, 8.0]]),
                                 numpy.array([0], 'i'), 2, 1.0).array
    numpy.testing.assert_array_equal(y, 0)
