"""convolution_2d: Chainer's output sizes (stride, pad, cover_all, dilate),
groups, the bias, and gradients that can be differentiated again."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _r(dtype, shape, seed):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


def _direct(x, W, stride=1, pad=0):
    """Convolution by its definition, one output pixel at a time."""
    x = numpy.pad(x.astype(numpy.float64),
                  ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    n, _, h, w = x.shape
    o, _, kh, kw = W.shape
    oh, ow = (h - kh) // stride + 1, (w - kw) // stride + 1
    y = numpy.zeros((n, o, oh, ow))
    for i in range(oh):
        for j in range(ow):
            patch = x[:, :, i * stride:i * stride + kh,
                      j * stride:j * stride + kw]
            y[:, :, i, j] = numpy.tensordot(patch, W, ((1, 2, 3), (1, 2, 3)))
    return y


@dtype_param
class TestConvolution2D:

    def test_matches_the_definition(self, dtype):
        x, W, b = _r(dtype, (2, 3, 6, 5), 0), _r(dtype, (4, 3, 3, 2), 1), \
            _r(dtype, (4,), 2)
        y = F.convolution_2d(x, W, b, stride=2, pad=1)
        assert y.shape == (2, 4, 3, 3) and y.dtype == dtype
        expected = _direct(x, W, 2, 1) + b.astype(numpy.float64)[:, None,
                                                                 None]
        assert_close(y, expected, dtype)

    @pytest.mark.parametrize('size, k, s, p, cover_all, dilate, out', [
        (5, 3, 1, 0, False, 1, 3),
        (5, 3, 2, 1, False, 1, 3),
        (6, 3, 2, 0, False, 1, 2),
        (6, 3, 2, 0, True, 1, 3),
        (7, 3, 1, 0, False, 2, 3),
        (7, 3, 3, 2, True, 2, 3),
    ])
    def test_output_size(self, dtype, size, k, s, p, cover_all, dilate,
                         out):
        y = F.convolution_2d(numpy.zeros((1, 1, size, size), dtype),
                             numpy.zeros((1, 1, k, k), dtype), stride=s,
                             pad=p, cover_all=cover_all, dilate=dilate)
        assert y.shape == (1, 1, out, out)

    def test_cover_all_adds_the_last_partial_window(self, dtype):
        x = numpy.arange(6, dtype=dtype).reshape(1, 1, 1, 6)
        W = numpy.ones((1, 1, 1, 4), dtype)
        assert_close(F.convolution_2d(x, W, stride=(1, 3)), [[[[6]]]], dtype)
        # The extra window sees 3, 4, 5 and one zero beyond the edge.
        assert_close(F.convolution_2d(x, W, stride=(1, 3), cover_all=True),
                     [[[[6, 12]]]], dtype)

    def test_groups_convolve_channel_blocks_separately(self, dtype):
        x, W = _r(dtype, (2, 4, 5, 5), 0), _r(dtype, (6, 2, 3, 3), 1)
        y = F.convolution_2d(x, W, groups=2)
        assert y.shape == (2, 6, 3, 3)
        assert_close(y[:, :3], _direct(x[:, :2], W[:3]), dtype)
        assert_close(y[:, 3:], _direct(x[:, 2:], W[3:]), dtype)

    def test_dilation_spreads_the_taps(self, dtype):
        x, W = _r(dtype, (1, 2, 7, 7), 0), _r(dtype, (3, 2, 2, 2), 1)
        spread = numpy.zeros((3, 2, 3, 3), dtype)
        spread[:, :, ::2, ::2] = W
        assert_close(F.convolution_2d(x, W, dilate=2), _direct(x, spread),
                     dtype)

    def test_1x1_kernel_is_a_linear_map_of_channels(self, dtype):
        x, W = _r(dtype, (2, 3, 2, 2), 0), _r(dtype, (4, 3, 1, 1), 1)
        expected = numpy.einsum('nchw,oc->nohw', x.astype(numpy.float64),
                                W[:, :, 0, 0])
        assert_close(F.convolution_2d(x, W), expected, dtype)

    def test_gradients(self, dtype):
        x = chainer.Variable(_r(dtype, (2, 3, 5, 5), 0))
        W = chainer.Variable(_r(dtype, (2, 3, 3, 3), 1))
        b = chainer.Variable(_r(dtype, (2,), 2))
        y = F.convolution_2d(x, W, b, pad=1)
        gx, gW, gb = grads(y, (x, W, b))
        # With gy = 1, gb counts the output pixels and gW sums the patches.
        assert_close(gb, [50, 50], dtype)
        patches = numpy.pad(x.array.astype(numpy.float64),
                            ((0, 0), (0, 0), (1, 1), (1, 1)))
        expected = numpy.array([[[patches[:, c, u:u + 5, v:v + 5].sum()
                                  for v in range(3)] for u in range(3)]
                                for c in range(3)])
        assert_close(gW[0], expected, dtype)
        assert_close(gW[1], expected, dtype)
        assert gx.shape == x.shape

    def test_double_backprop_reaches_x_and_W(self, dtype):
        x = chainer.Variable(_r(dtype, (1, 2, 4, 4), 0))
        W = chainer.Variable(_r(dtype, (2, 2, 3, 3), 1))
        y = F.convolution_2d(x, W, stride=2, pad=1)
        gx, = chainer.grad([y], [x], enable_double_backprop=True)
        # gx is linear in W and does not depend on x.
        ggW, ggx = chainer.grad([F.sum(gx * gx)], [W, x])
        assert ggx is None
        assert ggW is not None and ggW.shape == W.shape
        assert numpy.abs(ggW.array).max() > 0

    def test_keyword_only_options(self, dtype):
        with pytest.raises(TypeError):
            F.convolution_2d(_r(dtype, (1, 1, 3, 3), 0),
                             _r(dtype, (1, 1, 2, 2), 1), None, 1, 0, False,
                             2)
