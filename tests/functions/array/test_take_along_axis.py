"""take_along_axis: NumPy's semantics (broadcasting, negative indices,
axis None), and gradients that add up where an element is taken
several times."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype):
    return numpy.arange(12).reshape(3, 4).astype(dtype)


@dtype_param
class TestTakeAlongAxis:

    def test_values(self, dtype):
        i = numpy.array([[0, 3], [1, 1], [-1, 0]])
        y = F.take_along_axis(_x(dtype), i, 1)
        assert_close(y, [[0, 3], [5, 5], [11, 8]], dtype)

    def test_default_axis_is_last(self, dtype):
        i = numpy.array([[1], [2], [3]], dtype=numpy.int32)
        assert_close(F.take_along_axis(_x(dtype), i), [[1], [6], [11]],
                     dtype)

    def test_broadcasting(self, dtype):
        x = numpy.arange(4).reshape(1, 4).astype(dtype)
        i = numpy.array([[3], [0]])
        y = F.take_along_axis(x, i, 1)
        assert_close(y, [[3], [0]], dtype)
        xv = chainer.Variable(x)
        gx, = grads(F.take_along_axis(xv, i, 1), (xv,),
                    numpy.array([[1], [2]], dtype=dtype))
        assert_close(gx, [[2, 0, 0, 1]], dtype)

    def test_list_indices(self, dtype):
        y = F.take_along_axis(_x(dtype), [[1], [0], [3]], 1)
        assert_close(y, [[1], [4], [11]], dtype)

    def test_axis_none(self, dtype):
        y = F.take_along_axis(_x(dtype), numpy.array([11, 0]), None)
        assert_close(y, [11, 0], dtype)

    def test_repeated_indices_accumulate(self, dtype):
        x = chainer.Variable(_x(dtype))
        i = numpy.array([[2, 2, 2], [0, 1, 0], [3, 3, 3]])
        gx, = grads(F.take_along_axis(x, i, 1), (x,))
        assert_close(gx, [[0, 0, 3, 0], [2, 1, 0, 0], [0, 0, 0, 3]], dtype)

    def test_double_backprop(self, dtype):
        x = chainer.Variable(_x(dtype))
        i = numpy.array([[1], [0], [1]])
        y = F.take_along_axis(x, i, 0)
        assert y.shape == (3, 4)
        gy = chainer.Variable(numpy.ones(y.shape, dtype=dtype))
        gx, = chainer.grad([y], [x], [gy], enable_double_backprop=True)
        ggy, = grads(gx, (gy,), _x(dtype))
        assert_close(ggy, _x(numpy.float64)[[1, 0, 1]], dtype)

    def test_out_of_range(self, dtype):
        with pytest.raises(ValueError, match='take_along_axis: indices'):
            F.take_along_axis(_x(dtype), numpy.array([[4]]), 1)
