"""matmul: transa/transb against explicit transposes, the ``@`` operator,
batch broadcasting, and NumPy's rules for one-dimensional operands."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _m(dtype, shape, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


def _product(a, b):
    """Matrix product over the last two axes, by explicit sums."""
    a = a.astype(numpy.float64)[..., :, :, None]
    b = b.astype(numpy.float64)[..., None, :, :]
    return (a * b).sum(axis=-2)


@dtype_param
class TestMatMul:

    @pytest.mark.parametrize('transa, transb', [
        (False, False), (True, False), (False, True), (True, True)])
    def test_transposes(self, dtype, transa, transb):
        a, b = _m(dtype, (2, 3, 4), 1), _m(dtype, (2, 4, 5), 2)
        a_in = a.swapaxes(-1, -2).copy() if transa else a
        b_in = b.swapaxes(-1, -2).copy() if transb else b
        y = F.matmul(a_in, b_in, transa=transa, transb=transb)
        assert y.shape == (2, 3, 5)
        assert y.dtype == dtype
        assert_close(y, _product(a, b), dtype)

    def test_operator(self, dtype):
        a, b = chainer.Variable(_m(dtype, (3, 4))), _m(dtype, (4, 2), 1)
        assert_close(a @ b, F.matmul(a, b).array, dtype)
        assert_close(b.T @ a.T, F.matmul(b.T, a.T).array, dtype)

    def test_batch_broadcast_gradients_keep_operand_shapes(self, dtype):
        a = chainer.Variable(_m(dtype, (1, 3, 4)))
        b = chainer.Variable(_m(dtype, (2, 4, 5), 1))
        y = F.matmul(a, b)
        assert y.shape == (2, 3, 5)
        ga, gb = grads(y, (a, b))
        assert ga.shape == (1, 3, 4) and gb.shape == (2, 4, 5)
        # d(sum(a @ b))/da sums b's rows over the batch it was broadcast to.
        assert_close(ga[0], numpy.broadcast_to(
            b.array.astype(numpy.float64).sum(axis=(0, 2)), (3, 4)), dtype)

    def test_vector_vector_is_a_0dim_dot(self, dtype):
        a, b = _m(dtype, (4,)), _m(dtype, (4,), 1)
        y = F.matmul(a, b)
        assert y.shape == ()
        assert_close(y, (a.astype(numpy.float64) * b).sum(), dtype)

    def test_matrix_vector_drops_the_axis(self, dtype):
        m, v = _m(dtype, (3, 4)), _m(dtype, (4,), 1)
        assert F.matmul(m, v).shape == (3,)
        assert F.matmul(v, m.T).shape == (3,)

    def test_transpose_flag_ignored_for_a_vector(self, dtype):
        m, v = _m(dtype, (3, 4)), _m(dtype, (3,), 1)
        assert F.matmul(v, m, transa=True).shape == (4,)


def _batch_matmul(*args, **kwargs):
    with pytest.warns(DeprecationWarning, match='batch_matmul'):
        return F.batch_matmul(*args, **kwargs)


@dtype_param
class TestBatchMatMul:

    def test_matrices(self, dtype):
        a, b = _m(dtype, (2, 3, 4), 1), _m(dtype, (2, 4, 5), 2)
        y = _batch_matmul(a, b)
        assert y.shape == (2, 3, 5) and y.dtype == dtype
        assert_close(y, _product(a, b), dtype)

    def test_2d_operands_are_column_vectors(self, dtype):
        a, b = _m(dtype, (2, 3), 1), _m(dtype, (2, 3), 2)
        outer = _batch_matmul(a, b, transb=True)
        assert outer.shape == (2, 3, 3)
        assert_close(outer, _product(a[:, :, None], b[:, None, :]), dtype)
        inner = _batch_matmul(a, b, transa=True)
        assert inner.shape == (2, 1, 1)
        assert_close(inner, (a.astype(numpy.float64) * b).sum(
            axis=1).reshape(2, 1, 1), dtype)

    def test_transposes_and_gradients(self, dtype):
        a = chainer.Variable(_m(dtype, (2, 4, 3), 1))
        b = chainer.Variable(_m(dtype, (2, 5, 4), 2))
        y = _batch_matmul(a, b, transa=True, transb=True)
        assert y.shape == (2, 3, 5)
        ga, gb = grads(y, (a, b))
        assert ga.shape == (2, 4, 3) and gb.shape == (2, 5, 4)

    def test_batch_sizes_must_match(self, dtype):
        with pytest.warns(DeprecationWarning), \
                pytest.raises(ValueError, match='batch_matmul'):
            F.batch_matmul(_m(dtype, (2, 3, 4)), _m(dtype, (1, 4, 2)))
