"""average_pooling_2d: window means with the padding counted as zeros and
no cover_all; the gradient spreads evenly."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype):
    return numpy.arange(16, dtype=dtype).reshape(1, 1, 4, 4)


@dtype_param
class TestAveragePooling2D:

    def test_means(self, dtype):
        y = F.average_pooling_2d(_x(dtype), 2)
        assert y.dtype == dtype
        assert_close(y[0, 0], [[2.5, 4.5], [10.5, 12.5]], dtype)

    def test_padding_counts_as_zero(self, dtype):
        y = F.average_pooling_2d(numpy.ones((1, 1, 3, 3), dtype), 3,
                                 stride=1, pad=1)
        counts = numpy.array([[4, 6, 4], [6, 9, 6], [4, 6, 4]])
        assert_close(y[0, 0], counts / 9, dtype)

    def test_no_cover_all(self, dtype):
        assert F.average_pooling_2d(numpy.zeros((1, 1, 5, 5), dtype),
                                    2).shape == (1, 1, 2, 2)

    def test_gradient_is_spread_evenly(self, dtype):
        x = chainer.Variable(_x(dtype))
        gy = numpy.array([[[[4, 8], [0, 4]]]], dtype)
        gx, = grads(F.average_pooling_2d(x, 2), (x,), gy)
        assert_close(gx[0, 0], [[1, 1, 2, 2], [1, 1, 2, 2],
                                [0, 0, 1, 1], [0, 0, 1, 1]], dtype)

    def test_double_backprop(self, dtype):
        x = chainer.Variable(_x(dtype))
        gy = chainer.Variable(numpy.ones((1, 1, 2, 2), dtype))
        gx, = chainer.grad([F.average_pooling_2d(x, 2)], [x], [gy],
                           enable_double_backprop=True)
        ggy, = chainer.grad([gx], [gy], [_x(dtype)])
        assert_close(ggy[0, 0], [[2.5, 4.5], [10.5, 12.5]], dtype)
