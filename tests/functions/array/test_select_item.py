"""select_item: one element per row, int32 and int64 labels, a gradient
only at the selected positions (and its own gradient re-selects)."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype):
    return numpy.arange(12).reshape(4, 3).astype(dtype)


@dtype_param
class TestSelectItem:

    @pytest.mark.parametrize('t_dtype', [numpy.int32, numpy.int64])
    def test_selects(self, dtype, t_dtype):
        t = numpy.array([2, 0, 1, 2], dtype=t_dtype)
        y = F.select_item(_x(dtype), t)
        assert y.shape == (4,)
        assert y.dtype == dtype
        assert_close(y, [2, 3, 7, 11], dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(_x(dtype))
        t = numpy.array([2, 0, 0, 1], dtype=numpy.int32)
        gx, = grads(F.select_item(x, t), (x,),
                    numpy.array([1, 2, 3, 4], dtype=dtype))
        assert_close(gx, [[0, 0, 1], [2, 0, 0], [3, 0, 0], [0, 4, 0]], dtype)

    def test_double_backprop(self, dtype):
        x = chainer.Variable(_x(dtype))
        t = numpy.array([1, 1, 0, 2], dtype=numpy.int32)
        gy = chainer.Variable(numpy.ones(4, dtype=dtype))
        gx, = chainer.grad([F.select_item(x, t)], [x], [gy],
                           enable_double_backprop=True)
        ggx = numpy.arange(12).reshape(4, 3).astype(dtype)
        ggy, = grads(gx, (gy,), ggx)
        assert_close(ggy, [1, 4, 6, 11], dtype)

    def test_t_as_variable(self, dtype):
        t = chainer.Variable(numpy.array([0, 1, 2, 0], dtype=numpy.int32))
        assert_close(F.select_item(_x(dtype), t), [0, 4, 8, 9], dtype)

    @pytest.mark.parametrize('t', [[0, 3, 0, 0], [-1, 0, 0, 0]])
    def test_t_out_of_range(self, dtype, t):
        with pytest.raises(ValueError, match='select_item: t'):
            F.select_item(_x(dtype), numpy.array(t, dtype=numpy.int32))
