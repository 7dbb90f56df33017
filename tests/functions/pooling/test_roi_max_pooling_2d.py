"""roi_max_pooling_2d: a worked example, the half-to-even rounding of the
boxes, -inf in empty bins (as in Chainer 7.8.1), and the gradient to the
maxima."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads


@pytest.mark.parametrize('dtype', DTYPES)
class TestROIMaxPooling2D:

    def test_bins(self, dtype):
        x = numpy.arange(32, dtype=dtype).reshape(2, 1, 4, 4)
        rois = numpy.array([[0, 0, 4, 4], [1, 1, 3, 4]], dtype)
        y = F.roi_max_pooling_2d(x, rois, numpy.array([0, 1], 'i'), 2, 1.0)
        assert y.dtype == dtype
        # Region 1 of sample 1: rows 1..2 in 2 bins, columns 1..3 in 2
        # bins [1, 3) and [2, 4).
        assert_close(y, [[[[5, 7], [13, 15]]], [[[22, 23], [26, 27]]]],
                     dtype)

    def test_gradient_goes_to_the_maxima(self, dtype):
        x = chainer.Variable(numpy.arange(16, dtype=dtype).reshape(
            1, 1, 4, 4))
        y = F.roi_max_pooling_2d(x, numpy.array([[0, 0, 4, 4]], dtype),
                                 numpy.array([0], 'i'), 2, 1.0)
        gx, = grads(y, (x,))
        expected = numpy.zeros((4, 4))
        expected[[1, 1, 3, 3], [1, 3, 1, 3]] = 1
        assert_close(gx[0, 0], expected, dtype)


def test_rounding_and_empty_bins():
    x = numpy.arange(36.0).reshape(1, 1, 6, 6)
    # 0.5 rounds to 0 and 2.5 to 2 (halves to even).
    y = F.roi_max_pooling_2d(x, numpy.array([[0.5, 0.5, 2.5, 2.5]]),
                             numpy.array([0], 'i'), 1, 1.0).array
    assert y[0, 0, 0, 0] == 7
    # A region beyond the image: its bins are empty.
    y = F.roi_max_pooling_2d(x, numpy.array([[7.0, 7.0, 9.0, 9.0]]),
                             numpy.array([0], 'i'), 1, 1.0).array
    assert y[0, 0, 0, 0] == -numpy.inf
