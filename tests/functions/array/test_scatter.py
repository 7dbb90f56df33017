"""scatter: torch's semantics (a copy of x with updates written along an
axis), scalar updates, repeated targets, and gradients for x where
nothing was written and for the updates that were."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype):
    return numpy.zeros((3, 4), dtype=dtype)


@dtype_param
class TestScatter:

    def test_axis1(self, dtype):
        i = numpy.array([[3, 0], [1, 2]])
        u = numpy.array([[1, 2], [3, 4]], dtype=dtype)
        x = _x(dtype)
        y = F.scatter(x, 1, i, u)
        assert_close(y, [[2, 0, 0, 1], [0, 3, 4, 0], [0, 0, 0, 0]], dtype)
        assert_close(x, numpy.zeros((3, 4)), dtype)

    def test_axis0_and_negative_indices(self, dtype):
        i = numpy.array([[-1, 0, 1]])
        y = F.scatter(_x(dtype), 0, i, numpy.array([[1, 2, 3]], dtype=dtype))
        assert_close(y, [[0, 2, 0, 0], [0, 0, 3, 0], [1, 0, 0, 0]], dtype)

    def test_list_indices(self, dtype):
        y = F.scatter(_x(dtype), 0, [[2, 1, 0, 2]], 1)
        assert_close(y, [[0, 0, 1, 0], [0, 1, 0, 0], [1, 0, 0, 1]], dtype)

    def test_scalar_updates(self, dtype):
        i = numpy.array([[1], [3], [0]])
        y = F.scatter(_x(dtype), 1, i, 5)
        assert_close(y, [[0, 5, 0, 0], [0, 0, 0, 5], [5, 0, 0, 0]], dtype)

    def test_gradients(self, dtype):
        x = chainer.Variable(numpy.ones((3, 4), dtype=dtype))
        u = chainer.Variable(numpy.ones((2, 2), dtype=dtype))
        i = numpy.array([[3, 0], [1, 2]])
        gy = numpy.arange(12).reshape(3, 4).astype(dtype)
        gx, gu = grads(F.scatter(x, 1, i, u), (x, u), gy)
        expected = gy.astype(numpy.float64)
        expected[0, [3, 0]] = 0
        expected[1, [1, 2]] = 0
        assert_close(gx, expected, dtype)
        assert_close(gu, [[3, 0], [5, 6]], dtype)

    def test_repeated_target_gives_one_winner(self, dtype):
        u = chainer.Variable(numpy.array([[1, 2, 3]], dtype=dtype))
        i = numpy.array([[2, 2, 0]])
        y = F.scatter(_x(dtype)[:1], 1, i, u)
        written = y.array[0, 2]
        assert written in (1, 2)
        gu, = grads(y, (u,), numpy.array([[10, 20, 30, 40]], dtype=dtype))
        # Only the update that was written gets the gradient of its target.
        winner = 0 if written == 1 else 1
        expected = [0, 0, 10]
        expected[winner] = 30
        assert_close(gu, [expected], dtype)

    def test_broadcast_updates_gradient(self, dtype):
        u = chainer.Variable(numpy.ones((1,), dtype=dtype))
        i = numpy.array([[0], [1], [2]])
        gy = numpy.arange(12).reshape(3, 4).astype(dtype)
        gu, = grads(F.scatter(_x(dtype), 1, i, u), (u,), gy)
        assert_close(gu, [0 + 5 + 10], dtype)

    def test_double_backprop(self, dtype):
        x = chainer.Variable(numpy.ones((2, 3), dtype=dtype))
        u = chainer.Variable(numpy.ones((2, 1), dtype=dtype))
        i = numpy.array([[1], [2]])
        gy = chainer.Variable(numpy.ones((2, 3), dtype=dtype))
        gx, gu = chainer.grad([F.scatter(x, 1, i, u)], [x, u], [gy],
                              enable_double_backprop=True)
        ggx = numpy.full((2, 3), 2, dtype=dtype)
        ggu = numpy.array([[5], [7]], dtype=dtype)
        ggy, = chainer.grad([gx, gu], [gy], [ggx, ggu])
        assert_close(ggy.array, [[2, 5, 2], [2, 2, 7]], dtype)

    def test_out_of_range(self, dtype):
        with pytest.raises(ValueError, match='scatter: indices'):
            F.scatter(_x(dtype), 1, numpy.array([[4]]),
                      numpy.ones((1, 1), dtype=dtype))
