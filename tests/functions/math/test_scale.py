"""scale: Caffe-style broadcasting of the factors from ``axis`` on, and
gradients of both operands."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads


def _x(dtype, shape):
    return numpy.arange(numpy.prod(shape)).reshape(shape).astype(dtype) / 4


@pytest.mark.parametrize('dtype', DTYPES)
class TestScale:

    def test_broadcasts_from_axis(self, dtype):
        x, y = _x(dtype, (2, 3, 4, 2)), _x(dtype, (3, 4)) + 1
        z = F.scale(x, y, axis=1)
        assert z.shape == x.shape and z.dtype == dtype
        assert_close(z, x.astype(numpy.float64) * y.reshape(1, 3, 4, 1),
                     dtype)

    def test_gradients(self, dtype):
        x = chainer.Variable(_x(dtype, (2, 3)))
        y = chainer.Variable(numpy.array([1, 2, 3], dtype=dtype))
        gx, gy = grads(F.scale(x, y), (x, y))
        assert_close(gx, [[1, 2, 3], [1, 2, 3]], dtype)
        assert_close(gy, _x(numpy.float64, (2, 3)).sum(axis=0), dtype)


def test_y_must_match_x_from_axis():
    with pytest.raises(ValueError, match='scale'):
        F.scale(numpy.zeros((2, 3)), numpy.zeros(2), axis=1)
