"""reshape: -1 inference, the Variable method, gradients reshaped back."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype):
    return numpy.arange(24).reshape(2, 3, 4).astype(dtype)


@dtype_param
class TestReshape:

    @pytest.mark.parametrize('shape, inferred', [
        ((-1,), (24,)), ((6, -1), (6, 4)), ((-1, 2, 3), (4, 2, 3)),
        ((2, -1, 1), (2, 12, 1))])
    def test_minus_one_is_inferred(self, dtype, shape, inferred):
        y = F.reshape(_x(dtype), shape)
        assert y.shape == inferred
        assert y.dtype == dtype
        assert_close(y, _x(dtype).ravel().reshape(inferred), dtype)

    def test_same_shape(self, dtype):
        y = F.reshape(_x(dtype), (2, 3, 4))
        assert isinstance(y, chainer.Variable)
        assert_close(y, _x(dtype), dtype)

    def test_variable_method(self, dtype):
        x = chainer.Variable(_x(dtype))
        assert x.reshape(6, 4).shape == (6, 4)
        assert x.reshape((4, -1)).shape == (4, 6)

    def test_gradient_takes_the_input_shape(self, dtype):
        x = chainer.Variable(_x(dtype))
        gy = numpy.arange(24).reshape(4, 6).astype(dtype)
        gx, = grads(F.reshape(x, (4, -1)), (x,), gy)
        assert gx.shape == (2, 3, 4)
        assert_close(gx, gy.reshape(2, 3, 4), dtype)
