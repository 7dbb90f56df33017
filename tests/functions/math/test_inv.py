"""inv and batch_inv: A inv(A) = I, the gradient -A^-T gY A^-T, second
order, and singular matrices."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import gradient_check

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)
A = [[2.0, 1.0], [1.0, 1.0]]  # inverse [[1, -1], [-1, 2]]


@dtype_param
class TestInv:

    def test_value(self, dtype):
        y = F.inv(numpy.array(A, dtype=dtype))
        assert y.dtype == dtype
        assert_close(y, [[1, -1], [-1, 2]], dtype)

    def test_gradient(self, dtype):
        a = chainer.Variable(numpy.array(A, dtype=dtype))
        gy = numpy.array([[1, 0], [0, 0]], dtype=dtype)
        ga, = grads(F.inv(a), (a,), gy)
        inv = numpy.array([[1, -1], [-1, 2]])
        assert_close(ga, -inv.T @ gy.astype(float) @ inv.T, dtype)


@dtype_param
class TestBatchInv:

    def test_products_are_identities(self, dtype):
        rng = numpy.random.RandomState(0)
        a = (rng.uniform(-0.3, 0.3, (4, 3, 3)) + 2 * numpy.eye(3))
        y = F.batch_inv(a.astype(dtype))
        assert y.shape == (4, 3, 3) and y.dtype == dtype
        product = a @ y.array.astype(numpy.float64)
        tol = {numpy.float16: 5e-3, numpy.float32: 1e-6}.get(dtype, 1e-14)
        numpy.testing.assert_allclose(product, numpy.broadcast_to(
            numpy.eye(3), (4, 3, 3)), atol=tol)


def test_second_order():
    a = numpy.array([[2.0, 0.5, 0.1], [0.3, 1.5, 0.2], [0.0, 0.4, 1.8]])
    gradient_check.check_double_backward(
        F.inv, a, numpy.linspace(-1, 1, 9).reshape(3, 3),
        numpy.linspace(1, -1, 9).reshape(3, 3))


@pytest.mark.parametrize('fn, shape', [(F.inv, (2, 2)),
                                       (F.batch_inv, (3, 2, 2))])
def test_singular_matrix_is_refused(fn, shape):
    with pytest.raises(ValueError, match='singular'):
        fn(numpy.ones(shape))
