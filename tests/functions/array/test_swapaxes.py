"""swapaxes: negative axes, the same axis twice, views of the input, and
the gradient swapped back."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype):
    return numpy.arange(24).reshape(2, 3, 4).astype(dtype)


@dtype_param
class TestSwapaxes:

    def test_exchanges_two_axes(self, dtype):
        y = F.swapaxes(_x(dtype), 0, 2)
        assert y.shape == (4, 3, 2)
        assert y.dtype == dtype
        assert y.array[3, 1, 0] == _x(dtype)[0, 1, 3]

    def test_negative_axes(self, dtype):
        y = F.swapaxes(_x(dtype), -1, -2)
        assert y.shape == (2, 4, 3)
        assert y.array[1, 3, 2] == _x(dtype)[1, 2, 3]

    def test_same_axis_is_identity(self, dtype):
        assert_close(F.swapaxes(_x(dtype), 1, -2), _x(dtype), dtype)

    def test_integer_input(self, dtype):
        x = numpy.arange(6, dtype=numpy.int32).reshape(2, 3)
        y = F.swapaxes(x, 0, 1)
        assert y.dtype == numpy.int32
        numpy.testing.assert_array_equal(y.array, x.T)

    def test_gradient_swaps_back(self, dtype):
        x = chainer.Variable(_x(dtype))
        gy = numpy.arange(24).reshape(4, 3, 2).astype(dtype)
        gx, = grads(F.swapaxes(x, 2, 0), (x,), gy)
        assert_close(gx, gy.transpose(2, 1, 0), dtype)

    def test_axis_must_be_an_int(self, dtype):
        with pytest.raises(TypeError, match='swapaxes: axis2'):
            F.swapaxes(_x(dtype), 0, (1,))
