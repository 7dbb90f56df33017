"""transpose: axes=None reverses, negative axes, the Variable spellings,
and the gradient through the inverse permutation."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype):
    return numpy.arange(24).reshape(2, 3, 4).astype(dtype)


@dtype_param
class TestTranspose:

    def test_none_reverses_the_axes(self, dtype):
        y = F.transpose(_x(dtype))
        assert y.shape == (4, 3, 2)
        assert y.dtype == dtype
        assert y.array[3, 1, 0] == _x(dtype)[0, 1, 3]

    def test_negative_axes(self, dtype):
        y = F.transpose(_x(dtype), (-1, 0, -2))
        assert y.shape == (4, 2, 3)
        assert y.array[3, 1, 2] == _x(dtype)[1, 2, 3]

    def test_variable_spellings(self, dtype):
        x = chainer.Variable(_x(dtype))
        assert x.T.shape == (4, 3, 2)
        assert x.transpose().shape == (4, 3, 2)
        assert x.transpose(1, 2, 0).shape == (3, 4, 2)
        assert x.transpose((1, 2, 0)).shape == (3, 4, 2)

    def test_gradient_applies_the_inverse_permutation(self, dtype):
        x = chainer.Variable(_x(dtype))
        gy = numpy.arange(24).reshape(3, 4, 2).astype(dtype)
        gx, = grads(F.transpose(x, (1, 2, 0)), (x,), gy)
        assert gx.shape == (2, 3, 4)
        # y[i, j, k] = x[k, i, j], so gx[k, i, j] = gy[i, j, k].
        assert_close(gx, gy.transpose(2, 0, 1), dtype)
