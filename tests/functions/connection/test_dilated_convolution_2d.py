"""dilated_convolution_2d: a convolution with taps ``dilate`` apart, i.e.
with a kernel spread out by zeros."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _r(dtype, shape, seed):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


def _spread(W, dy, dx):
    o, c, kh, kw = W.shape
    out = numpy.zeros((o, c, (kh - 1) * dy + 1, (kw - 1) * dx + 1), W.dtype)
    out[:, :, ::dy, ::dx] = W
    return out


@dtype_param
class TestDilatedConvolution2D:

    @pytest.mark.parametrize('dilate, stride, pad', [
        (2, 1, 0), ((2, 3), 1, 2), (3, 2, 1)])
    def test_equals_convolution_with_a_spread_kernel(self, dtype, dilate,
                                                     stride, pad):
        x, W, b = _r(dtype, (2, 2, 9, 9), 0), _r(dtype, (3, 2, 2, 3), 1), \
            _r(dtype, (3,), 2)
        dy, dx = dilate if isinstance(dilate, tuple) else (dilate, dilate)
        y = F.dilated_convolution_2d(x, W, b, stride, pad, dilate)
        expected = F.convolution_2d(x, _spread(W, dy, dx), b, stride, pad)
        assert y.shape == expected.shape
        assert_close(y, expected.array, dtype)

    def test_dilate_1_is_a_plain_convolution(self, dtype):
        x, W = _r(dtype, (1, 2, 5, 5), 0), _r(dtype, (2, 2, 3, 3), 1)
        assert_close(F.dilated_convolution_2d(x, W),
                     F.convolution_2d(x, W).array, dtype)

    def test_cover_all(self, dtype):
        y = F.dilated_convolution_2d(numpy.zeros((1, 1, 8, 8), dtype),
                                     numpy.zeros((1, 1, 2, 2), dtype),
                                     stride=3, dilate=2, cover_all=True)
        assert y.shape == (1, 1, 3, 3)

    def test_gradient_of_W_reads_dilated_pixels(self, dtype):
        x = chainer.Variable(numpy.arange(16, dtype=dtype).reshape(
            1, 1, 4, 4) / 8)
        W = chainer.Variable(numpy.ones((1, 1, 2, 2), dtype))
        gW, = grads(F.dilated_convolution_2d(x, W, dilate=3), (W,))
        # One output pixel: the taps read pixels (0, 0), (0, 3), (3, 0),
        # (3, 3).
        assert_close(gW[0, 0], numpy.array([[0, 3], [12, 15]]) / 8, dtype)
