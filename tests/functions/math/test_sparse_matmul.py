"""sparse_matmul and COO matrices: to_coo / CooMatrix / to_dense /
get_order as in Chainer, products on either side with transposes and
batches, padding and repeated entries, and gradients of the entries."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import gradient_check
from chainer_core.utils.sparse import CooMatrix, get_order, to_coo

from .. import DTYPES, assert_close

DENSE = [[0, 2, 0], [-1, 0, 0], [0, 0, 3]]


def _m(dtype, shape, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


class TestToCoo:

    def test_entries_in_row_major_order(self):
        coo = to_coo(numpy.array(DENSE, dtype=numpy.float32))
        assert isinstance(coo.data, chainer.Variable)
        assert not coo.data.requires_grad
        numpy.testing.assert_array_equal(coo.data.array, [2, -1, 3])
        numpy.testing.assert_array_equal(coo.row, [0, 1, 2])
        numpy.testing.assert_array_equal(coo.col, [1, 0, 2])
        assert coo.row.dtype == numpy.int32 and coo.col.dtype == numpy.int32
        assert coo.shape == (3, 3) and coo.order == 'C'

    def test_ldnz_pads_with_minus_one(self):
        coo = to_coo(numpy.array(DENSE, dtype=numpy.float32), ldnz=5,
                     requires_grad=True)
        assert coo.data.requires_grad
        numpy.testing.assert_array_equal(coo.data.array, [2, -1, 3, 0, 0])
        numpy.testing.assert_array_equal(coo.row, [0, 1, 2, -1, -1])
        # An ldnz below the number of entries is raised to it.
        assert to_coo(numpy.array(DENSE), ldnz=1).data.shape == (3,)

    def test_batch_pads_to_the_fullest_matrix(self):
        x = numpy.array([DENSE, numpy.eye(3) * 0], dtype=numpy.float64)
        coo = to_coo(x)
        assert coo.data.shape == (2, 3) and coo.shape == (3, 3)
        numpy.testing.assert_array_equal(coo.row[1], [-1, -1, -1])
        numpy.testing.assert_array_equal(coo.to_dense(), x)

    def test_to_dense_adds_repeated_entries(self):
        coo = CooMatrix(numpy.array([1.0, 2.0, 5.0]),
                        numpy.array([0, 0, -1]), numpy.array([1, 1, -1]),
                        (2, 2))
        numpy.testing.assert_array_equal(coo.to_dense(), [[0, 3], [0, 0]])

    @pytest.mark.parametrize('ndim', [1, 4])
    def test_bad_input(self, ndim):
        with pytest.raises(ValueError, match='to_coo'):
            to_coo(numpy.ones((2,) * ndim))


class TestCooMatrix:

    @pytest.mark.parametrize('kwargs, error', [
        (dict(data=numpy.ones((1, 1, 1))), ValueError),
        (dict(row=numpy.zeros(3, numpy.int32)), ValueError),
        (dict(shape=(2,)), ValueError),
        (dict(shape=(0, 2)), ValueError),
        (dict(order='X'), ValueError),
        (dict(col=numpy.zeros(2)), TypeError),
    ])
    def test_bad_arguments(self, kwargs, error):
        args = dict(data=numpy.ones(2), row=numpy.zeros(2, numpy.int32),
                    col=numpy.array([0, 1], numpy.int32), shape=(2, 2))
        args.update(kwargs)
        with pytest.raises(error, match='CooMatrix'):
            CooMatrix(**args)

    @pytest.mark.parametrize('row, col, order', [
        ([0, 0, 1, -1], [0, 2, 1, -1], 'C'),
        ([1, 0, 1], [0, 1, 1], 'F'),
        ([1, 0, 0], [1, 0, 1], 'other'),
        ([[1, 0], [0, 1]], [[0, 1], [0, 0]], 'F'),
    ])
    def test_order(self, row, col, order):
        assert get_order(numpy.array(row), numpy.array(col)) == order

    def test_order_refuses_half_padding(self):
        with pytest.raises(ValueError, match='get_order'):
            get_order(numpy.array([0, -1]), numpy.array([0, 1]))


@pytest.mark.parametrize('dtype', DTYPES)
class TestSparseMatMul:

    @pytest.mark.parametrize('transa', [False, True])
    @pytest.mark.parametrize('transb', [False, True])
    def test_sparse_times_dense(self, dtype, transa, transb):
        a = numpy.array(DENSE, dtype=dtype)
        b = _m(dtype, (2, 3) if transb else (3, 2))
        y = F.sparse_matmul(to_coo(a), b, transa=transa, transb=transb)
        assert y.shape == (3, 2) and y.dtype == dtype
        op_a = a.T if transa else a
        op_b = b.T if transb else b
        assert_close(y, op_a.astype(float) @ op_b.astype(float), dtype)

    @pytest.mark.parametrize('transa', [False, True])
    @pytest.mark.parametrize('transb', [False, True])
    def test_dense_times_sparse(self, dtype, transa, transb):
        a = _m(dtype, (3, 2) if transa else (2, 3))
        b = numpy.array(DENSE, dtype=dtype)
        y = F.sparse_matmul(a, to_coo(b), transa=transa, transb=transb)
        assert y.shape == (2, 3)
        op_a = a.T if transa else a
        op_b = b.T if transb else b
        assert_close(y, op_a.astype(float) @ op_b.astype(float), dtype)

    def test_batched(self, dtype):
        a = numpy.array([DENSE, numpy.eye(3)], dtype=dtype)
        b = _m(dtype, (2, 3, 4))
        y = F.sparse_matmul(to_coo(a), b)
        assert y.shape == (2, 3, 4)
        assert_close(y, a.astype(float) @ b.astype(float), dtype)

    def test_gradients_reach_entries_and_dense_operand(self, dtype):
        coo = to_coo(numpy.array(DENSE, dtype=dtype), ldnz=4,
                     requires_grad=True)
        b = chainer.Variable(numpy.ones((3, 2), dtype=dtype))
        y = F.sparse_matmul(coo, b)
        F.sum(y).backward()
        # d sum(A b) / dA[r, c] = sum_j b[c, j] = 2; the padding gets 0.
        assert_close(coo.data.grad, [2, 2, 2, 0], dtype)
        assert_close(b.grad, [[-1, -1], [2, 2], [3, 3]], dtype)


@pytest.mark.parametrize('side', ['left', 'right'])
def test_second_order(side):
    row = numpy.array([0, 2, 1, 2, -1], dtype=numpy.int32)
    col = numpy.array([1, 0, 2, 0, -1], dtype=numpy.int32)
    data = numpy.array([0.5, -1.0, 2.0, 0.25, 0.0])
    dense = _m(numpy.float64, (3, 2) if side == 'left' else (2, 3), 1)

    def fn(d, x):
        coo = CooMatrix(data, row, col, (3, 3))
        coo.data = d
        if side == 'left':
            return F.sparse_matmul(coo, x, transa=True)
        return F.sparse_matmul(x, coo, transb=True)

    gy = _m(numpy.float64, fn(data, dense).shape, 2)
    gradient_check.check_backward(fn, (data, dense), gy)
    gradient_check.check_double_backward(
        fn, (data, dense), gy, (_m(numpy.float64, (5,), 3),
                                _m(numpy.float64, dense.shape, 4)))


def test_two_dense_operands_are_refused():
    with pytest.raises(ValueError, match='sparse_matmul'):
        F.sparse_matmul(numpy.ones((2, 2)), numpy.ones((2, 2)))
