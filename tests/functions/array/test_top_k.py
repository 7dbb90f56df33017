"""top_k: values and int64 indices, largest or smallest, ties taken in
order, unsorted selection, and gradients only at the selected elements
(the indices output needs none)."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

_X = numpy.array([[3, 7, 1, 5], [2, 0, 6, 4]])


@dtype_param
class TestTopK:

    def test_largest(self, dtype):
        values, indices = F.top_k(_X.astype(dtype), 2)
        assert values.dtype == dtype
        assert indices.dtype == numpy.int64
        assert not indices.requires_grad
        assert_close(values, [[7, 5], [6, 4]], dtype)
        numpy.testing.assert_array_equal(indices.array, [[1, 3], [2, 3]])

    def test_smallest_along_axis0(self, dtype):
        values, indices = F.top_k(_X.astype(dtype), 1, axis=0, largest=False)
        assert_close(values, [[2, 0, 1, 4]], dtype)
        numpy.testing.assert_array_equal(indices.array, [[1, 1, 0, 1]])

    def test_ties_take_the_earlier(self, dtype):
        x = numpy.array([1, 3, 3, 1, 3], dtype=dtype)
        _, indices = F.top_k(x, 2)
        numpy.testing.assert_array_equal(indices.array, [1, 2])
        _, indices = F.top_k(x, 1, largest=False)
        numpy.testing.assert_array_equal(indices.array, [0])

    @pytest.mark.parametrize('largest', [True, False])
    def test_unsorted_selects_the_same_set(self, dtype, largest):
        x = numpy.random.RandomState(0).permutation(20).reshape(2, 10)
        values, indices = F.top_k(x.astype(dtype), 4, largest=largest,
                                  sorted=False)
        expected = numpy.sort(x, axis=1)
        expected = expected[:, ::-1][:, :4] if largest else expected[:, :4]
        assert_close(numpy.sort(values.array, axis=1),
                     numpy.sort(expected, axis=1), dtype)
        assert_close(numpy.take_along_axis(x, indices.array, 1), values.array,
                     dtype)

    def test_k_zero(self, dtype):
        values, indices = F.top_k(_X.astype(dtype), 0)
        assert values.shape == indices.shape == (2, 0)

    def test_gradient_at_selected_elements(self, dtype):
        x = chainer.Variable(_X.astype(dtype))
        values, _ = F.top_k(x, 2)
        gx, = grads(values, (x,), numpy.array([[1, 2], [3, 4]], dtype=dtype))
        assert_close(gx, [[0, 1, 0, 2], [0, 0, 3, 4]], dtype)

    def test_double_backprop(self, dtype):
        x = chainer.Variable(_X.astype(dtype))
        values, _ = F.top_k(x, 3, largest=False)
        gy = chainer.Variable(numpy.ones((2, 3), dtype=dtype))
        gx, = chainer.grad([values], [x], [gy], enable_double_backprop=True)
        ggx = numpy.arange(8).reshape(2, 4).astype(dtype)
        ggy, = grads(gx, (gy,), ggx)
        assert_close(ggy, [[2, 0, 3], [5, 4, 7]], dtype)

    def test_k_out_of_range(self, dtype):
        with pytest.raises(ValueError, match='top_k: k'):
            F.top_k(_X.astype(dtype), 5)
