"""im2col: Chainer's channel layout (c, ky, kx), stride, padding,
cover_all, dilation, and the gradient that adds patches back."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype, shape=(1, 2, 3, 3)):
    return numpy.arange(numpy.prod(shape)).reshape(shape).astype(dtype)


@dtype_param
class TestIm2Col:

    def test_layout(self, dtype):
        y = F.im2col(_x(dtype), 2)
        assert y.shape == (1, 8, 2, 2)
        # Channel (c*kh + ky)*kw + kx at (p, q) is x[c, p + ky, q + kx].
        assert_close(y[0, :, 0, 0], [0, 1, 3, 4, 9, 10, 12, 13], dtype)
        assert_close(y[0, 5, :, :], [[10, 11], [13, 14]], dtype)

    def test_padding_reads_zeros(self, dtype):
        y = F.im2col(_x(dtype, (1, 1, 2, 2)), 3, pad=1)
        assert y.shape == (1, 9, 2, 2)
        assert_close(y[0, :, 0, 0], [0, 0, 0, 0, 0, 1, 0, 2, 3], dtype)

    @pytest.mark.parametrize('kwargs, out', [
        (dict(ksize=2, stride=2), (2, 2)),
        (dict(ksize=2, stride=2, cover_all=True), (3, 3)),
        (dict(ksize=(3, 1), stride=(2, 1)), (2, 5)),
        (dict(ksize=2, dilate=2), (3, 3)),
        (dict(ksize=2, pad=(1, 0), dilate=(1, 3)), (6, 2)),
    ])
    def test_output_sizes(self, dtype, kwargs, out):
        y = F.im2col(_x(dtype, (1, 1, 5, 5)), **kwargs)
        assert y.shape[2:] == out

    def test_dilation_taps(self, dtype):
        y = F.im2col(_x(dtype, (1, 1, 5, 5)), 2, dilate=2)
        assert_close(y[0, :, 0, 0], [0, 2, 10, 12], dtype)

    def test_gradient_counts_overlaps(self, dtype):
        x = chainer.Variable(_x(dtype))
        gx, = grads(F.im2col(x, 2), (x,))
        # Each pixel gets one unit per window that covers it.
        assert_close(gx[0, 0], [[1, 2, 1], [2, 4, 2], [1, 2, 1]], dtype)

    def test_double_backprop(self, dtype):
        x = chainer.Variable(_x(dtype, (1, 1, 3, 3)))
        gy = chainer.Variable(numpy.ones((1, 4, 2, 2), dtype=dtype))
        gx, = chainer.grad([F.im2col(x, 2)], [x], [gy],
                           enable_double_backprop=True)
        ggx = numpy.arange(9).reshape(1, 1, 3, 3).astype(dtype)
        ggy, = grads(gx, (gy,), ggx)
        assert_close(ggy, F.im2col(ggx, 2).array, dtype)

    def test_window_larger_than_input(self, dtype):
        with pytest.raises(TypeError, match='ksize'):
            F.im2col(_x(dtype), 4)
