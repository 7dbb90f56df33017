"""get_item: NumPy indexing semantics, and gradients that scatter back to
the indexed positions, summing where an advanced index repeats one."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype, shape=(3, 4)):
    return numpy.arange(numpy.prod(shape)).reshape(shape).astype(dtype)


@dtype_param
class TestGetItem:

    def test_variable_indexing(self, dtype):
        x = chainer.Variable(_x(dtype))
        y = x[1, 1:3]
        assert isinstance(y, chainer.Variable)
        assert_close(y, [5, 6], dtype)

    def test_integers_give_a_0dim_variable(self, dtype):
        y = F.get_item(_x(dtype), (2, -1))
        assert y.shape == ()
        assert y.dtype == dtype
        assert_close(y, 11, dtype)

    def test_numpy_integer_index(self, dtype):
        assert_close(F.get_item(_x(dtype), numpy.int64(1)), [4, 5, 6, 7],
                     dtype)

    def test_whole_slice(self, dtype):
        assert_close(F.get_item(_x(dtype), slice(None)), _x(dtype), dtype)

    def test_advanced_indices_around_a_slice_go_first(self, dtype):
        # NumPy puts the broadcast index axes first when a slice separates
        # the advanced indices.
        x = _x(dtype, (2, 3, 4))
        y = F.get_item(x, ([0, 1], slice(None), [1, 2]))
        assert y.shape == (2, 3)
        assert_close(y, x[[0, 1], :, [1, 2]], dtype)

    def test_repeated_advanced_indices_accumulate(self, dtype):
        x = chainer.Variable(_x(dtype))
        gy = numpy.arange(16).reshape(4, 4).astype(dtype)
        gx, = grads(F.get_item(x, [0, 2, 0, 0]), (x,), gy)
        expected = numpy.zeros((3, 4))
        expected[0] = gy[0] + gy[2] + gy[3]
        expected[2] = gy[1]
        assert_close(gx, expected, dtype)

    def test_repeated_pairs_accumulate(self, dtype):
        x = chainer.Variable(_x(dtype))
        y = F.get_item(x, ([1, 1, 2], [3, 3, 0]))
        gx, = grads(y, (x,), numpy.array([1, 2, 4], dtype=dtype))
        expected = numpy.zeros((3, 4))
        expected[1, 3], expected[2, 0] = 3, 4
        assert_close(gx, expected, dtype)

    def test_boolean_mask_gradient(self, dtype):
        x = chainer.Variable(_x(dtype))
        mask = x.array % 3 == 0
        y = F.get_item(x, mask)
        assert_close(y, [0, 3, 6, 9], dtype)
        gx, = grads(y, (x,))
        assert_close(gx, mask, dtype)

    def test_gradient_is_differentiable(self, dtype):
        x = chainer.Variable(_x(dtype))
        y = F.get_item(x, [0, 0])
        gy = chainer.Variable(numpy.ones(y.shape, dtype=dtype))
        gx, = chainer.grad([y], [x], [gy], enable_double_backprop=True)
        # The gradient is linear in gy: its own gradient re-indexes ggx.
        ggx = numpy.arange(12).reshape(3, 4).astype(dtype)
        ggy, = grads(gx, (gy,), ggx)
        assert_close(ggy, ggx[[0, 0]], dtype)
