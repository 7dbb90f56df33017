"""deconvolution_nd: the 1-D case is a full convolution, the 2-D case
agrees with deconvolution_2d."""
import numpy
import pytest

import chainer_core.functions as F

from .. import DTYPES, assert_close

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _r(dtype, shape, seed):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


@dtype_param
class TestDeconvolutionND:

    def test_1d_is_a_full_convolution(self, dtype):
        x, W = _r(dtype, (1, 1, 6), 0), _r(dtype, (1, 1, 3), 1)
        y = F.deconvolution_nd(x, W)
        expected = numpy.convolve(x[0, 0].astype(numpy.float64), W[0, 0])
        assert y.shape == (1, 1, 8)
        assert_close(y[0, 0], expected, dtype)

    def test_2d_agrees_with_deconvolution_2d(self, dtype):
        x, W, b = _r(dtype, (2, 4, 3, 4), 0), _r(dtype, (4, 3, 3, 2), 1), \
            _r(dtype, (6,), 2)
        kw = dict(stride=(2, 1), pad=(1, 0), dilate=(1, 2), groups=2)
        assert_close(F.deconvolution_nd(x, W, b, **kw),
                     F.deconvolution_2d(x, W, b, **kw).array, dtype)

    def test_3d_output_size(self, dtype):
        y = F.deconvolution_nd(numpy.zeros((1, 2, 2, 3, 4), dtype),
                               numpy.zeros((2, 3, 3, 2, 3), dtype),
                               stride=(1, 2, 3), pad=(1, 0, 1))
        assert y.shape == (1, 3, 2, 6, 10)

    def test_outsize(self, dtype):
        y = F.deconvolution_nd(numpy.zeros((1, 1, 3), dtype),
                               numpy.zeros((1, 1, 3), dtype), stride=2,
                               outsize=(8,))
        assert y.shape == (1, 1, 8)
