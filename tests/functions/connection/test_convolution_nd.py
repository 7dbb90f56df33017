"""convolution_nd: any number of spatial axes; the 2-D case agrees with
convolution_2d and the 1-D case with numpy.correlate."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _r(dtype, shape, seed):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


@dtype_param
class TestConvolutionND:

    def test_1d_is_correlation(self, dtype):
        x, W = _r(dtype, (1, 1, 9), 0), _r(dtype, (1, 1, 4), 1)
        y = F.convolution_nd(x, W)
        expected = numpy.correlate(x[0, 0].astype(numpy.float64), W[0, 0],
                                   mode='valid')
        assert y.shape == (1, 1, 6)
        assert_close(y[0, 0], expected, dtype)

    def test_2d_agrees_with_convolution_2d(self, dtype):
        x, W, b = _r(dtype, (2, 4, 5, 6), 0), _r(dtype, (6, 2, 3, 2), 1), \
            _r(dtype, (6,), 2)
        kw = dict(stride=(2, 1), pad=(1, 2), dilate=(1, 2), groups=2)
        assert_close(F.convolution_nd(x, W, b, **kw),
                     F.convolution_2d(x, W, b, **kw).array, dtype)

    def test_3d_shape_and_a_voxel(self, dtype):
        x, W = _r(dtype, (2, 3, 4, 5, 6), 0), _r(dtype, (2, 3, 2, 3, 2), 1)
        y = F.convolution_nd(x, W, stride=(1, 2, 3), pad=(0, 1, 1))
        assert y.shape == (2, 2, 3, 3, 3)
        padded = numpy.pad(x.astype(numpy.float64),
                           ((0, 0), (0, 0), (0, 0), (1, 1), (1, 1)))
        expected = (padded[1, :, 2:4, 2:5, 3:5] * W[1]).sum()
        assert_close(y[1, 1, 2, 1, 1], expected, dtype)

    def test_cover_all(self, dtype):
        x = numpy.zeros((1, 1, 6), dtype)
        W = numpy.zeros((1, 1, 3), dtype)
        assert F.convolution_nd(x, W, stride=2).shape == (1, 1, 2)
        assert F.convolution_nd(x, W, stride=2, cover_all=True).shape == \
            (1, 1, 3)

    def test_gradient_of_bias_counts_voxels(self, dtype):
        x = chainer.Variable(_r(dtype, (2, 1, 3, 3, 3), 0))
        W = chainer.Variable(_r(dtype, (2, 1, 2, 2, 2), 1))
        b = chainer.Variable(_r(dtype, (2,), 2))
        gx, gW, gb = grads(F.convolution_nd(x, W, b), (x, W, b))
        assert_close(gb, [16, 16], dtype)
        assert gx.shape == x.shape and gW.shape == W.shape
