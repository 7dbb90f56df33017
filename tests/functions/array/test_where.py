"""where: broadcasting of condition, x and y, scalar operands, and
gradients routed by the condition and summed over broadcast axes."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

_C = numpy.array([[True, False, True], [False, False, True]])


@dtype_param
class TestWhere:

    def test_choice(self, dtype):
        x = numpy.arange(6).reshape(2, 3).astype(dtype)
        y = -x
        assert_close(F.where(_C, x, y), [[0, -1, 2], [-3, -4, 5]], dtype)

    def test_broadcast(self, dtype):
        x = numpy.array([[1], [2]], dtype=dtype)
        y = numpy.array([10, 20, 30], dtype=dtype)
        out = F.where(_C[0], x, y)
        assert out.shape == (2, 3)
        assert_close(out, [[1, 20, 1], [2, 20, 2]], dtype)

    def test_scalars(self, dtype):
        x = numpy.arange(6).reshape(2, 3).astype(dtype)
        out = F.where(_C, x, 0)
        assert out.dtype == dtype
        assert_close(out, [[0, 0, 2], [0, 0, 5]], dtype)
        assert_close(F.where(_C, 7.5, x), [[7.5, 1, 7.5], [3, 4, 7.5]],
                     dtype)

    def test_gradients(self, dtype):
        x = chainer.Variable(numpy.zeros((2, 3), dtype=dtype))
        y = chainer.Variable(numpy.zeros((3,), dtype=dtype))
        gy = numpy.arange(1, 7).reshape(2, 3).astype(dtype)
        gx, gyy = grads(F.where(_C, x, y), (x, y), gy)
        assert_close(gx, gy * _C, dtype)
        assert_close(gyy, (gy * ~_C).sum(axis=0), dtype)

    def test_condition_as_variable(self, dtype):
        c = chainer.Variable(_C)
        x = numpy.ones((2, 3), dtype=dtype)
        assert_close(F.where(c, x, 0), _C, dtype)

    def test_double_backprop(self, dtype):
        x = chainer.Variable(numpy.zeros((2, 3), dtype=dtype))
        y = chainer.Variable(numpy.zeros((2, 3), dtype=dtype))
        gy = chainer.Variable(numpy.ones((2, 3), dtype=dtype))
        gx, _ = chainer.grad([F.where(_C, x, y)], [x, y], [gy],
                             enable_double_backprop=True)
        ggx = numpy.arange(6).reshape(2, 3).astype(dtype)
        ggy, = grads(gx, (gy,), ggx)
        assert_close(ggy, ggx * _C, dtype)

    def test_condition_must_be_bool(self, dtype):
        with pytest.raises(TypeError, match='condition'):
            F.where(_C.astype(numpy.int32), numpy.zeros((2, 3), dtype=dtype),
                    numpy.zeros((2, 3), dtype=dtype))
