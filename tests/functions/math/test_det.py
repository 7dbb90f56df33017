"""det and batch_det: values against cofactor expansion, Jacobi's formula
for the gradient, second order, and singular matrices."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import gradient_check

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)
A = [[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]]  # det = 18


@dtype_param
class TestDet:

    def test_value_and_shape(self, dtype):
        y = F.det(numpy.array(A, dtype=dtype))
        assert y.shape == () and y.dtype == dtype
        assert_close(y, 18, dtype)

    def test_gradient_is_det_times_inverse_transposed(self, dtype):
        a = chainer.Variable(numpy.array(A, dtype=dtype))
        ga, = grads(F.det(a), (a,))
        # The cofactor matrix of A.
        cofactors = [[11, -4, 1], [-4, 8, -2], [1, -2, 5]]
        tol = {numpy.float16: 3e-2}.get(dtype)
        if tol:
            numpy.testing.assert_allclose(ga.astype(float), cofactors,
                                          rtol=tol, atol=tol)
        else:
            assert_close(ga, cofactors, dtype)


@dtype_param
class TestBatchDet:

    def test_values(self, dtype):
        a = numpy.array([A, numpy.diag([1.0, -2.0, 0.5]),
                         numpy.eye(3)[[1, 0, 2]]], dtype=dtype)
        y = F.batch_det(a)
        assert y.shape == (3,) and y.dtype == dtype
        assert_close(y, [18, -1, -1], dtype)

    def test_gradient_shape(self, dtype):
        a = chainer.Variable(numpy.array([A, A], dtype=dtype))
        ga, = grads(F.batch_det(a), (a,))
        assert ga.shape == (2, 3, 3)


def test_second_order():
    a = numpy.array(A) + 0.1 * numpy.arange(9).reshape(3, 3)
    gradient_check.check_double_backward(
        F.det, a, numpy.array(0.7), numpy.linspace(-1, 1, 9).reshape(3, 3))


def test_singular_matrix_has_zero_det_but_no_gradient():
    a = chainer.Variable(numpy.ones((3, 3)))
    y = F.det(a)
    assert abs(float(y.array)) < 1e-12
    with pytest.raises(ValueError, match='singular'):
        y.backward()
