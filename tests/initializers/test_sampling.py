"""DownsamplingConvFilter and UpsamplingDeconvFilter; the values are those
of Chainer 7.8.1."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import initializers

# The tent kernels along one axis, by kernel size.
_TAPS = {2: [0.5, 0.5], 3: [0.5, 1.0, 0.5], 4: [0.25, 0.75, 0.75, 0.25]}


def _expected(shape, normalize):
    k = numpy.array(_TAPS[shape[-1]])
    kernel = numpy.ones(())
    for _ in shape[2:]:
        kernel = numpy.multiply.outer(kernel, k)
    if normalize:
        kernel = kernel / kernel.sum()
    out = numpy.zeros(shape)
    for i in range(shape[0]):
        for j in range(shape[1]):
            if shape[1] == 1 or i == j:
                out[i, j] = kernel
    return out


@pytest.mark.parametrize('cls,normalize', [
    (initializers.UpsamplingDeconvFilter, False),
    (initializers.DownsamplingConvFilter, True)])
@pytest.mark.parametrize('shape', [(2, 2, 4, 4), (3, 1, 3, 3), (1, 1, 3),
                                   (2, 2, 2, 2, 2), (3, 3, 3, 3, 3)])
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_values(cls, normalize, shape, dtype):
    a = numpy.full(shape, 7, dtype)
    cls()(a)
    numpy.testing.assert_allclose(a, _expected(shape, normalize), rtol=1e-6)


def test_chainer_values_2x2():
    # Literal values of Chainer 7.8.1 for a 4x4 kernel.
    a = numpy.empty((1, 1, 4, 4), numpy.float32)
    initializers.UpsamplingDeconvFilter()(a)
    assert a[0, 0, 1, 1] == 0.5625 and a[0, 0, 0, 0] == 0.0625
    initializers.DownsamplingConvFilter()(a)
    assert a[0, 0, 1, 1] == 0.140625 and a[0, 0, 0, 3] == 0.015625


def test_upsampling_doubles_a_constant_image():
    # Deconvolution with stride 2 and the 4x4 bilinear filter upsamples a
    # constant image to the same constant (away from the border).
    w = numpy.empty((1, 1, 4, 4), numpy.float64)
    initializers.UpsamplingDeconvFilter()(w)
    x = numpy.full((1, 1, 5, 5), 3.0)
    y = F.deconvolution_2d(x, w, stride=2, pad=1).array
    assert y.shape == (1, 1, 10, 10)
    numpy.testing.assert_allclose(y[0, 0, 1:-1, 1:-1], 3.0)


@pytest.mark.parametrize('cls', [initializers.UpsamplingDeconvFilter,
                                 initializers.DownsamplingConvFilter])
@pytest.mark.parametrize('shape,match', [
    ((2, 3, 3, 3), 'equal'), ((1, 3, 3, 3), 'equal'),
    ((3, 3, 3, 4), 'same size'), ((3, 3), 'at least 3')])
def test_bad_shapes(cls, shape, match):
    with pytest.raises(ValueError, match=cls.__name__ + '.*' + match):
        cls()(numpy.empty(shape, numpy.float32))


def test_only_linear():
    with pytest.raises(ValueError, match="UpsamplingDeconvFilter.*'linear'"):
        initializers.UpsamplingDeconvFilter('nearest')


def test_dtype_mismatch():
    with pytest.raises(ValueError, match='float64'):
        initializers.DownsamplingConvFilter(dtype=numpy.float64)(
            numpy.empty((2, 2, 3, 3), numpy.float32))


def test_generate_array_default_dtype():
    a = initializers.generate_array(
        initializers.DownsamplingConvFilter(), (2, 2, 3, 3), numpy)
    assert a.dtype == numpy.float32
    with chainer.using_config('dtype', numpy.float64):
        a = initializers.generate_array(
            initializers.DownsamplingConvFilter(), (2, 2, 3, 3), numpy)
    assert a.dtype == numpy.float64
