"""squeeze: every size-1 axis by default, chosen axes (which must have size
1), and the gradient reshaped back."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype):
    return numpy.arange(6).reshape(1, 2, 1, 3, 1).astype(dtype)


@dtype_param
class TestSqueeze:

    @pytest.mark.parametrize('axis, shape', [
        (None, (2, 3)), (0, (2, 1, 3, 1)), (-1, (1, 2, 1, 3)),
        ((0, 2), (2, 3, 1)), ((4, -5, 2), (2, 3)), ((), (1, 2, 1, 3, 1)),
    ])
    def test_shapes(self, dtype, axis, shape):
        y = F.squeeze(_x(dtype), axis)
        assert y.shape == shape
        assert_close(y, _x(dtype).reshape(shape), dtype)

    def test_all_ones_gives_0dim(self, dtype):
        assert F.squeeze(numpy.ones((1, 1), dtype=dtype)).shape == ()

    def test_axis_of_other_size(self, dtype):
        with pytest.raises(TypeError, match='axis'):
            F.squeeze(_x(dtype), 1)

    def test_repeated_axis(self, dtype):
        with pytest.raises(TypeError, match='repeated'):
            F.squeeze(_x(dtype), (0, -5))

    def test_gradient(self, dtype):
        x = chainer.Variable(_x(dtype))
        gy = numpy.arange(6).reshape(2, 3).astype(dtype)
        gx, = grads(F.squeeze(x), (x,), gy)
        assert gx.shape == (1, 2, 1, 3, 1)
        assert_close(gx, gy.reshape(gx.shape), dtype)
