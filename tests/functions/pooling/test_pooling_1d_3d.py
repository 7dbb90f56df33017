"""The 1-D and 3-D forms of max/average pooling and unpooling: the same
results as the N-dimensional functions, Chainer's signatures, and the
check of the number of axes."""
import inspect

import numpy
import pytest

import chainer_core.functions as F

from .. import DTYPES, assert_close


_CALLS = [
    ('max_pooling', F.max_pooling_nd, dict(ksize=2, stride=1, pad=1)),
    ('average_pooling', F.average_pooling_nd,
     dict(ksize=2, stride=1, pad=1, pad_value=None)),
    ('unpooling', F.unpooling_nd, dict(ksize=2, cover_all=False)),
]


@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('ndim', [1, 3])
@pytest.mark.parametrize('name,nd,kwargs', _CALLS)
class TestFixedDimensionPooling:

    def test_same_as_nd(self, dtype, ndim, name, nd, kwargs):
        fn = getattr(F, '{}_{}d'.format(name, ndim))
        x = numpy.random.RandomState(0).rand(
            *(2, 3) + (4,) * ndim).astype(dtype)
        y = fn(x, **kwargs)
        assert_close(y, nd(x, **kwargs).array, dtype)
        assert fn.__name__ == '{}_{}d'.format(name, ndim)
        assert list(inspect.signature(fn).parameters) == list(
            inspect.signature(nd).parameters)

    def test_number_of_axes(self, dtype, ndim, name, nd, kwargs):
        fn = getattr(F, '{}_{}d'.format(name, ndim))
        x = numpy.zeros((2, 3) + (4,) * (4 - ndim), dtype)
        with pytest.raises(ValueError, match='{}_{}d'.format(name, ndim)):
            fn(x, 2)
