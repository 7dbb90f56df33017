"""deformable_convolution_2d_sampler: zero offsets give convolution_2d,
whole-pixel offsets shift the taps, points off the image read zeros, and
the gradients are first order only."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _r(dtype, shape, seed):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


@dtype_param
class TestDeformableConvolution2DSampler:

    def test_zero_offsets_give_a_convolution(self, dtype):
        x, W, b = _r(dtype, (2, 3, 5, 5), 0), _r(dtype, (2, 3, 3, 3), 1), \
            _r(dtype, (2,), 2)
        offset = numpy.zeros((2, 18, 3, 3), dtype)
        y = F.deformable_convolution_2d_sampler(x, offset, W, b, stride=2,
                                                pad=1)
        assert_close(y, F.convolution_2d(x, W, b, stride=2, pad=1).array,
                     dtype)

    def test_offsets_move_taps_along_x_then_y(self, dtype):
        x, W = _r(dtype, (1, 2, 6, 6), 0), _r(dtype, (2, 2, 2, 2), 1)
        right = numpy.zeros((1, 8, 5, 5), dtype)
        right[:, :4] = 1
        down = numpy.zeros((1, 8, 5, 5), dtype)
        down[:, 4:] = 1
        conv = F.convolution_2d(x, W).array
        y = F.deformable_convolution_2d_sampler(x, right, W)
        assert_close(y[:, :, :, :4], conv[:, :, :, 1:], dtype)
        y = F.deformable_convolution_2d_sampler(x, down, W)
        assert_close(y[:, :, :4], conv[:, :, 1:], dtype)

    def test_fractional_offset_interpolates(self, dtype):
        x = numpy.arange(9, dtype=dtype).reshape(1, 1, 3, 3)
        W = numpy.ones((1, 1, 1, 1), dtype)
        offset = numpy.zeros((1, 2, 3, 3), dtype)
        offset[0, 0] = 0.25
        offset[0, 1] = 0.5
        y = F.deformable_convolution_2d_sampler(x, offset, W)
        # Row 0 reads 0.5 row down and 0.25 column right; the last column
        # blends with zeros beyond the edge.
        assert_close(y[0, 0, 0], [1.75, 2.75, 3.75 - 0.25 * 4.5], dtype)

    def test_points_off_the_image_read_zero(self, dtype):
        x, W = _r(dtype, (1, 1, 3, 3), 0), _r(dtype, (1, 1, 2, 2), 1)
        offset = numpy.full((1, 8, 2, 2), 10, dtype)
        b = numpy.array([0.5], dtype)
        y = F.deformable_convolution_2d_sampler(x, offset, W, b)
        assert_close(y, numpy.full((1, 1, 2, 2), 0.5), dtype)

    def test_gradient_of_offset_is_the_image_slope(self, dtype):
        # x increases by 1 per column: moving a tap right by t adds t * W.
        x = numpy.tile(numpy.arange(5, dtype=dtype), (1, 1, 5, 1))
        W = chainer.Variable(numpy.array([[[[2.0]]]], dtype))
        offset = chainer.Variable(numpy.full((1, 2, 5, 5), 0.25, dtype))
        y = F.deformable_convolution_2d_sampler(x, offset, W)
        g_off, = grads(y[:, :, :3, :3], (offset,))
        assert_close(g_off[0, 0, :3, :3], numpy.full((3, 3), 2), dtype)
        assert_close(g_off[0, 1, :3, :3], numpy.zeros((3, 3)), dtype)

    def test_no_double_backprop(self, dtype):
        x = chainer.Variable(_r(dtype, (1, 1, 3, 3), 0))
        W = chainer.Variable(_r(dtype, (1, 1, 2, 2), 1))
        offset = chainer.Variable(numpy.full((1, 8, 2, 2), 0.3, dtype))
        y = F.deformable_convolution_2d_sampler(x, offset, W)
        gx, = chainer.grad([y], [x], [numpy.ones_like(y.array)],
                           enable_double_backprop=True)
        with pytest.raises(RuntimeError, match='double backprop'):
            chainer.grad([F.sum(gx * gx)], [W])
