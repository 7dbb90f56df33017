"""cholesky: L L^T = A, the lower triangle only is read, the gradient
(values checked against Chainer 7.8.1) and its gradient."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, grads


@pytest.mark.parametrize('dtype', DTYPES)
class TestCholesky:

    def test_factor(self, dtype):
        rng = numpy.random.RandomState(1)
        b = rng.uniform(-1, 1, (4, 4))
        a = (b @ b.T + 4 * numpy.eye(4)).astype(dtype)
        L = F.cholesky(a).array
        assert L.dtype == dtype
        numpy.testing.assert_array_equal(numpy.triu(L, 1), 0)
        assert (numpy.diag(L) > 0).all()
        tol = 5e-3 if dtype == numpy.float16 else 1e-5
        numpy.testing.assert_allclose(
            L.astype(float) @ L.astype(float).T, a.astype(float), rtol=tol,
            atol=tol)

    def test_gradient(self, dtype):
        a = chainer.Variable(numpy.array([[4.0, 2.0], [2.0, 3.0]], dtype))
        ga, = grads(F.cholesky(a), (a,))
        numpy.testing.assert_allclose(
            ga.astype(float), [[0.21338835, 0.0732233],
                               [0.0732233, 0.35355339]],
            rtol=1e-2 if dtype == numpy.float16 else 1e-6)


def test_second_order():
    a = chainer.Variable(numpy.array([[4.0, 2.0], [2.0, 3.0]]))
    g, = chainer.grad([F.sum(F.cholesky(a))], [a],
                      enable_double_backprop=True)
    gg, = chainer.grad([F.sum(g * g)], [a])
    numpy.testing.assert_allclose(gg.array, [[-0.02314798, 0.02207327],
                                             [0.02207327, -0.05898635]],
                                  rtol=1e-6)


def test_reads_the_lower_triangle():
    a = numpy.array([[4.0, 100.0], [2.0, 3.0]])
    numpy.testing.assert_allclose(
        F.cholesky(a).array, [[2.0, 0.0], [1.0, numpy.sqrt(2.0)]])


def test_not_positive_definite_is_refused():
    with pytest.raises(numpy.linalg.LinAlgError) as e:
        F.cholesky(numpy.array([[1.0, 2.0], [2.0, 1.0]]))
    assert isinstance(e.value, ValueError)
