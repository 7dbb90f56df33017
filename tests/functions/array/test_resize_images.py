"""resize_images: Chainer v7's sampling for each mode and align_corners
setting, and gradients that spread each output pixel over its sources."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _row(values, dtype):
    return numpy.array(values, dtype=dtype).reshape(1, 1, 1, -1)


@dtype_param
class TestResizeImages:

    @pytest.mark.parametrize('mode, align_corners, size, expected', [
        ('bilinear', True, 5, [0, 0.5, 1, 1.5, 2]),
        ('bilinear', False, 5, [0, 0.4, 1, 1.6, 2]),
        ('nearest', True, 5, [0, 0, 1, 2, 2]),
        ('nearest', False, 5, [0, 0, 1, 1, 2]),
        ('bilinear', True, 2, [0, 2]),
        ('bilinear', False, 2, [0.25, 1.75]),
        ('nearest', False, 2, [0, 1]),
        ('bilinear', True, 1, [0]),
        ('bilinear', False, 1, [1]),
    ])
    def test_sampling_along_a_row(self, dtype, mode, align_corners, size,
                                  expected):
        y = F.resize_images(_row([0, 1, 2], dtype), (1, size), mode=mode,
                            align_corners=align_corners)
        assert y.shape == (1, 1, 1, size)
        assert_close(y[0, 0, 0], expected, dtype)

    def test_defaults_are_bilinear_with_aligned_corners(self, dtype):
        x = numpy.arange(6).reshape(1, 1, 2, 3).astype(dtype)
        y = F.resize_images(x, (3, 5))
        assert_close(y[0, 0], [[0, 0.5, 1, 1.5, 2], [1.5, 2, 2.5, 3, 3.5],
                               [3, 3.5, 4, 4.5, 5]], dtype)

    def test_same_size_is_identity(self, dtype):
        x = numpy.random.RandomState(0).uniform(-1, 1, (2, 3, 4, 5)).astype(
            dtype)
        for align_corners in (True, False):
            for mode in ('bilinear', 'nearest'):
                assert_close(F.resize_images(x, (4, 5), mode=mode,
                                             align_corners=align_corners),
                             x, dtype)

    @pytest.mark.parametrize('mode, align_corners, expected', [
        ('bilinear', True, [1 + 0.5 * 2, 0.5 * 2 + 4 + 0.5 * 8,
                            0.5 * 8 + 16]),
        ('bilinear', False, [1 + 0.6 * 2, 0.4 * 2 + 4 + 0.4 * 8,
                             0.6 * 8 + 16]),
        ('nearest', True, [1 + 2, 4, 8 + 16]),
        ('nearest', False, [1 + 2, 4 + 8, 16]),
    ])
    def test_gradient(self, dtype, mode, align_corners, expected):
        x = chainer.Variable(_row([0, 1, 2], dtype))
        gy = _row([1, 2, 4, 8, 16], dtype)
        gx, = grads(F.resize_images(x, (1, 5), mode=mode,
                                    align_corners=align_corners), (x,), gy)
        assert_close(gx[0, 0, 0], expected, dtype)

    def test_double_backprop(self, dtype):
        x = chainer.Variable(numpy.zeros((1, 1, 2, 2), dtype=dtype))
        gy = chainer.Variable(numpy.ones((1, 1, 3, 3), dtype=dtype))
        gx, = chainer.grad([F.resize_images(x, (3, 3))], [x], [gy],
                           enable_double_backprop=True)
        ggx = numpy.array([[[[0, 2], [4, 6]]]], dtype=dtype)
        ggy, = grads(gx, (gy,), ggx)
        assert_close(ggy[0, 0], [[0, 1, 2], [2, 3, 4], [4, 5, 6]], dtype)

    def test_mode_is_keyword_only(self, dtype):
        with pytest.raises(TypeError):
            F.resize_images(_row([0, 1], dtype), (1, 2), 'nearest')
