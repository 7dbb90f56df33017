"""sort: ascending or descending along any axis, and a gradient that
follows each element back to where it came from."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

_X = numpy.array([[3, 1, 2], [0, 5, 4]])


@dtype_param
class TestSort:

    @pytest.mark.parametrize('axis, descending, expected', [
        (-1, False, [[1, 2, 3], [0, 4, 5]]),
        (1, True, [[3, 2, 1], [5, 4, 0]]),
        (0, False, [[0, 1, 2], [3, 5, 4]]),
        (0, True, [[3, 5, 4], [0, 1, 2]]),
    ])
    def test_values(self, dtype, axis, descending, expected):
        y = F.sort(_X.astype(dtype), axis, descending)
        assert y.dtype == dtype
        assert_close(y, expected, dtype)

    def test_integer_input(self, dtype):
        y = F.sort(_X.astype(numpy.int32), descending=True)
        numpy.testing.assert_array_equal(y.array, [[3, 2, 1], [5, 4, 0]])

    def test_gradient_follows_the_elements(self, dtype):
        x = chainer.Variable(_X.astype(dtype))
        gy = numpy.array([[10, 20, 30], [40, 50, 60]], dtype=dtype)
        gx, = grads(F.sort(x), (x,), gy)
        assert_close(gx, [[30, 10, 20], [40, 60, 50]], dtype)

    def test_double_backprop(self, dtype):
        x = chainer.Variable(_X.astype(dtype))
        gy = chainer.Variable(numpy.ones((2, 3), dtype=dtype))
        gx, = chainer.grad([F.sort(x, descending=True)], [x], [gy],
                           enable_double_backprop=True)
        ggx = numpy.arange(6).reshape(2, 3).astype(dtype)
        ggy, = grads(gx, (gy,), ggx)
        assert_close(ggy, [[0, 2, 1], [4, 5, 3]], dtype)

    def test_0dim_is_rejected(self, dtype):
        with pytest.raises(ValueError, match='sort'):
            F.sort(numpy.zeros((), dtype=dtype))
