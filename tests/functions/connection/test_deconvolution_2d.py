"""deconvolution_2d: the adjoint of convolution_2d, Chainer's default
output size, outsize, groups and the bias."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _r(dtype, shape, seed):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


@dtype_param
class TestDeconvolution2D:

    @pytest.mark.parametrize('kw', [
        dict(), dict(stride=2, pad=1), dict(stride=(2, 3), pad=(0, 1)),
        dict(dilate=2), dict(groups=2, stride=2)])
    def test_is_the_adjoint_of_convolution(self, dtype, kw):
        # <conv(x), z> == <x, deconv(z)> for every x and z.
        groups = kw.get('groups', 1)
        x, W = _r(dtype, (2, 4, 7, 8), 0), _r(dtype, (6, 4 // groups, 3, 3),
                                              1)
        y = F.convolution_2d(x, W, **kw).array
        z = _r(dtype, y.shape, 2)
        back = F.deconvolution_2d(z, W, outsize=x.shape[2:], **kw)
        assert back.shape == x.shape
        lhs = (y.astype(numpy.float64) * z).sum()
        rhs = (x.astype(numpy.float64) * back.array).sum()
        tol = 0.05 if dtype == numpy.float16 else 1e-4
        assert abs(lhs - rhs) <= tol * (1 + abs(lhs))

    @pytest.mark.parametrize('size, k, s, p, dilate, out', [
        (3, 3, 1, 0, 1, 5), (3, 3, 2, 1, 1, 5), (4, 2, 2, 0, 1, 8),
        (3, 3, 1, 0, 2, 7)])
    def test_default_output_size(self, dtype, size, k, s, p, dilate, out):
        y = F.deconvolution_2d(numpy.zeros((1, 1, size, size), dtype),
                               numpy.zeros((1, 1, k, k), dtype), stride=s,
                               pad=p, dilate=dilate)
        assert y.shape == (1, 1, out, out)

    def test_outsize_accepts_either_size_a_convolution_maps_back(self,
                                                                 dtype):
        x, W = _r(dtype, (1, 2, 3, 3), 0), _r(dtype, (2, 1, 3, 3), 1)
        small = F.deconvolution_2d(x, W, stride=2, pad=1)
        large = F.deconvolution_2d(x, W, stride=2, pad=1, outsize=(6, 5))
        assert small.shape == (1, 1, 5, 5) and large.shape == (1, 1, 6, 5)
        # The extra row receives only the taps that reach it.
        assert_close(large[:, :, :5], small.array, dtype)

    def test_1x1_stride_2_inserts_zeros(self, dtype):
        x = numpy.arange(1, 5, dtype=dtype).reshape(1, 1, 2, 2)
        W = numpy.full((1, 1, 1, 1), 2, dtype)
        y = F.deconvolution_2d(x, W, stride=2)
        assert_close(y[0, 0], [[2, 0, 4], [0, 0, 0], [6, 0, 8]], dtype)

    def test_bias_and_gradients(self, dtype):
        x = chainer.Variable(_r(dtype, (2, 3, 2, 2), 0))
        W = chainer.Variable(_r(dtype, (3, 2, 2, 2), 1))
        b = chainer.Variable(numpy.array([1, -1], dtype))
        y = F.deconvolution_2d(x, W, b)
        nobias = F.deconvolution_2d(x.array, W.array).array
        assert_close(y.array - nobias, numpy.broadcast_to(
            numpy.array([1, -1])[:, None, None], (2, 2, 3, 3)), dtype)
        gx, gW, gb = grads(y, (x, W, b))
        assert_close(gb, [18, 18], dtype)
        # With gy = 1, every input pixel gets the sum of its filter.
        expected = W.array.astype(numpy.float64).sum(axis=(1, 2, 3))
        assert_close(gx, numpy.broadcast_to(expected[None, :, None, None],
                                            (2, 3, 2, 2)), dtype)
        assert gW.shape == W.shape

    def test_double_backprop(self, dtype):
        x = chainer.Variable(_r(dtype, (1, 2, 3, 3), 0))
        W = chainer.Variable(_r(dtype, (2, 2, 3, 3), 1))
        y = F.deconvolution_2d(x, W, stride=2)
        gW, = chainer.grad([y], [W], enable_double_backprop=True)
        ggx, = chainer.grad([F.sum(gW * gW)], [x])
        assert ggx.shape == x.shape and numpy.abs(ggx.array).max() > 0
