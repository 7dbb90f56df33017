"""flip: one axis (required, an int), negative axes, and the gradient
flipped back."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype):
    return numpy.arange(24).reshape(2, 3, 4).astype(dtype)


@dtype_param
class TestFlip:

    @pytest.mark.parametrize('axis', [0, 1, 2, -1, -3])
    def test_values(self, dtype, axis):
        assert_close(F.flip(_x(dtype), axis),
                     numpy.flip(_x(numpy.float64), axis), dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(_x(dtype))
        gy = numpy.arange(24).reshape(2, 3, 4).astype(dtype)
        gx, = grads(F.flip(x, 1), (x,), gy)
        assert_close(gx, gy[:, ::-1], dtype)

    def test_axis_must_be_an_int(self, dtype):
        with pytest.raises(TypeError, match='flip: axis'):
            F.flip(_x(dtype), (0, 1))
