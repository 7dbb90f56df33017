"""bias: Caffe-style broadcasting of the second operand from ``axis`` on,
and its gradient summed over the other axes."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads


def _x(dtype, shape):
    return numpy.arange(numpy.prod(shape)).reshape(shape).astype(dtype) / 4


@pytest.mark.parametrize('dtype', DTYPES)
class TestBias:

    @pytest.mark.parametrize('x_shape, y_shape, axis, view', [
        ((2, 3, 4, 5), (3, 4), 1, (1, 3, 4, 1)),
        ((2, 3, 4), (2,), 0, (2, 1, 1)),
        ((2, 3, 4), (4,), 2, (1, 1, 4)),
        ((2, 3), (2, 3), 0, (2, 3)),
    ])
    def test_broadcasts_from_axis(self, dtype, x_shape, y_shape, axis, view):
        x, y = _x(dtype, x_shape), _x(dtype, y_shape) + 1
        z = F.bias(x, y, axis=axis)
        assert z.shape == x_shape and z.dtype == dtype
        assert_close(z, x.astype(numpy.float64) + y.reshape(view), dtype)

    def test_gradient_of_y_is_summed(self, dtype):
        x = chainer.Variable(_x(dtype, (2, 3, 4)))
        y = chainer.Variable(_x(dtype, (3,)))
        gx, gy = grads(F.bias(x, y), (x, y))
        assert_close(gx, numpy.ones((2, 3, 4)), dtype)
        assert_close(gy, [8, 8, 8], dtype)


def test_default_axis_is_one():
    x, y = numpy.zeros((2, 3)), numpy.array([1.0, 2.0, 3.0])
    numpy.testing.assert_array_equal(F.bias(x, y).array, [[1, 2, 3]] * 2)


@pytest.mark.parametrize('y_shape, axis', [((4,), 1), ((3,), 0),
                                           ((3, 4), 2), ((3,), 3)])
def test_y_must_match_x_from_axis(y_shape, axis):
    with pytest.raises(ValueError, match='bias'):
        F.bias(numpy.zeros((2, 3, 4)), numpy.zeros(y_shape), axis=axis)
