"""diagonal: NumPy's offsets and axis order, and gradients placed back on
the diagonal (double backprop takes the diagonal again)."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype, shape=(3, 4)):
    return numpy.arange(numpy.prod(shape)).reshape(shape).astype(dtype)


@dtype_param
class TestDiagonal:

    @pytest.mark.parametrize('offset, expected', [
        (0, [0, 5, 10]), (1, [1, 6, 11]), (3, [3]), (-1, [4, 9]),
        (-3, []), (5, []),
    ])
    def test_offsets(self, dtype, offset, expected):
        y = F.diagonal(_x(dtype), offset)
        assert y.shape == (len(expected),)
        assert_close(y, expected, dtype)

    @pytest.mark.parametrize('axis1, axis2', [(0, 2), (2, 0), (-1, 1)])
    def test_axes(self, dtype, axis1, axis2):
        x = _x(dtype, (3, 2, 4))
        y = F.diagonal(x, 1, axis1, axis2)
        assert_close(y, numpy.diagonal(x, 1, axis1, axis2), dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(_x(dtype))
        gx, = grads(F.diagonal(x, -1), (x,),
                    numpy.array([1, 2], dtype=dtype))
        expected = numpy.zeros((3, 4))
        expected[1, 0], expected[2, 1] = 1, 2
        assert_close(gx, expected, dtype)

    def test_gradient_with_swapped_axes(self, dtype):
        x = chainer.Variable(_x(dtype, (2, 3, 3)))
        gy = numpy.arange(1, 5).reshape(2, 2).astype(dtype)
        gx, = grads(F.diagonal(x, 1, 2, 1), (x,), gy)
        expected = numpy.zeros((2, 3, 3))
        for b in range(2):
            for i in range(2):
                expected[b, i + 1, i] = gy[b, i]
        assert_close(gx, expected, dtype)

    def test_double_backprop(self, dtype):
        x = chainer.Variable(_x(dtype))
        gy = chainer.Variable(numpy.ones(3, dtype=dtype))
        gx, = chainer.grad([F.diagonal(x)], [x], [gy],
                           enable_double_backprop=True)
        ggy, = grads(gx, (gy,), _x(dtype))
        assert_close(ggy, [0, 5, 10], dtype)
