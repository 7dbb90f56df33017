"""What mixed dtypes are refused, and the fixed-rank convolutions'
arguments."""
import inspect

import numpy
import pytest

import chainer_core.functions as F
from chainer_core.utils.type_check import InvalidType

f16, f32, f64, i32 = numpy.float16, numpy.float32, numpy.float64, numpy.int32


def _a(shape, dtype=f32):
    return numpy.ones(shape, dtype)


@pytest.mark.parametrize('call,message', [
    (lambda: F.linear(_a((2, 3)), _a((4, 3), i32)), "W.dtype.kind == 'f'"),
    (lambda: F.linear(_a((2, 3)), _a((4, 3)), _a((4,), i32)),
     "b.dtype.kind == 'f'"),
    (lambda: F.convolution_2d(_a((1, 2, 3, 3)), _a((1, 2, 2, 2), i32)),
     "W.dtype.kind == 'f'"),
    (lambda: F.matmul(_a((2, 3)), _a((3, 2), i32)), "b.dtype.kind == 'f'"),
    (lambda: F.batch_normalization(_a((4, 3)), _a((3,), f16), _a((3,))),
     'beta.dtype == gamma.dtype'),
    (lambda: F.fixed_batch_normalization(
        _a((4, 3)), _a((3,), f64), _a((3,), f64), _a((3,)), _a((3,), f64)),
     'mean.dtype == gamma.dtype'),
    (lambda: F.simplified_dropconnect(_a((2, 3)), _a((4, 3), i32)),
     "W.dtype.kind == 'f'"),
])
def test_non_float_or_unmatched_dtypes_are_refused(call, message):
    with pytest.raises(InvalidType, match=message.replace('.', r'\.')):
        call()


def test_batch_normalization_statistics_in_x_dtype_or_wider():
    mean, var = numpy.zeros(3, f32), numpy.ones(3, f32)
    x = numpy.random.RandomState(0).rand(6, 3).astype(f16)
    y = F.batch_normalization(x, _a((3,), f32), numpy.zeros(3, f32),
                              running_mean=mean, running_var=var)
    assert y.dtype == f16
    numpy.testing.assert_allclose(mean, 0.1 * x.astype(f64).mean(axis=0),
                                  rtol=1e-3)


@pytest.mark.parametrize('fn,ndim', [
    (F.convolution_1d, 1), (F.convolution_3d, 3),
    (F.deconvolution_1d, 1), (F.deconvolution_3d, 3)])
def test_fixed_rank_forms_check_the_rank_of_x(fn, ndim):
    x = _a((1, 2) + (3,) * (ndim + 1))
    W = _a((2, 2) + (1,) * (ndim + 1))
    with pytest.raises(ValueError, match='{}: x must have {} axes'.format(
            fn.__name__, ndim + 2)):
        fn(x, W)


@pytest.mark.parametrize('fn,last', [
    (F.convolution_1d, 'cover_all'), (F.convolution_3d, 'cover_all'),
    (F.deconvolution_1d, 'outsize'), (F.deconvolution_3d, 'outsize')])
def test_fixed_rank_forms_take_chainers_arguments(fn, last):
    names = list(inspect.signature(fn).parameters)
    assert names == ['x', 'W', 'b', 'stride', 'pad', last, 'dilate',
                     'groups']


def test_fixed_rank_forms_output_shapes_match_chainer():
    # Shapes from Chainer 7.8.1.
    y = F.convolution_1d(_a((1, 2, 5)), _a((3, 2, 2)), stride=2)
    assert y.shape == (1, 3, 2)
    y = F.deconvolution_3d(_a((1, 2, 2, 2, 2)), _a((2, 3, 2, 2, 2)),
                           stride=2)
    assert y.shape == (1, 3, 4, 4, 4)
    numpy.testing.assert_array_equal(y.array, numpy.full(y.shape, 2.0))
