"""einsum: both call forms, implicit output, ellipsis, diagonals and sums
in the gradient, mixed dtypes, and Chainer's refusals."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import gradient_check

from .. import DTYPES, assert_close, grads


def _m(dtype, shape, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


@pytest.mark.parametrize('dtype', DTYPES)
class TestEinSum:

    def test_matrix_product(self, dtype):
        a, b = _m(dtype, (2, 3), 1), _m(dtype, (3, 4), 2)
        y = F.einsum('ij,jk->ik', a, b)
        assert y.shape == (2, 4) and y.dtype == dtype
        assert_close(y, a.astype(float) @ b.astype(float), dtype)

    def test_sublist_form(self, dtype):
        a, b = _m(dtype, (2, 3), 1), _m(dtype, (3, 4), 2)
        y = F.einsum(a, [0, 1], b, [1, 2], [0, 2])
        assert_close(y, a.astype(float) @ b.astype(float), dtype)
        y = F.einsum(a, [Ellipsis, 1], b, [1, 2])
        assert_close(y, a.astype(float) @ b.astype(float), dtype)

    def test_implicit_output_is_sorted_single_labels(self, dtype):
        a, b = _m(dtype, (2, 3), 1), _m(dtype, (3, 4), 2)
        y = F.einsum('kj,ji', a, b)
        assert y.shape == (4, 2)
        assert_close(y, (a.astype(float) @ b.astype(float)).T, dtype)

    def test_trace_and_its_gradient(self, dtype):
        x = chainer.Variable(_m(dtype, (3, 3)))
        y = F.einsum('ii', x)
        assert y.shape == ()
        assert_close(y, numpy.trace(x.array.astype(float)), dtype)
        gx, = grads(y, (x,))
        assert_close(gx, numpy.eye(3), dtype)

    def test_diagonal_gradient(self, dtype):
        x = chainer.Variable(_m(dtype, (3, 3)))
        gy = numpy.array([1, 2, 3], dtype=dtype)
        gx, = grads(F.einsum('ii->i', x), (x,), gy)
        assert_close(gx, numpy.diag([1, 2, 3]), dtype)

    def test_summed_label_gradient_is_broadcast(self, dtype):
        x = chainer.Variable(_m(dtype, (2, 3)))
        gx, = grads(F.einsum('ij->i', x), (x,),
                    numpy.array([1, -1], dtype=dtype))
        assert_close(gx, [[1, 1, 1], [-1, -1, -1]], dtype)

    def test_ellipsis(self, dtype):
        a, b = _m(dtype, (2, 5, 3), 1), _m(dtype, (2, 5, 3), 2)
        y = F.einsum('...i,...i->...', a, b)
        assert y.shape == (2, 5)
        assert_close(y, (a.astype(float) * b).sum(axis=-1), dtype)


def test_gradients_in_mixed_dtypes():
    a = chainer.Variable(_m(numpy.float32, (2, 3)))
    b = chainer.Variable(_m(numpy.float64, (3, 2)))
    y = F.einsum('ij,jk->ik', a, b)
    assert y.dtype == numpy.float64
    ga, gb = grads(y, (a, b))
    assert ga.dtype == numpy.float32 and gb.dtype == numpy.float64


@pytest.mark.parametrize('subscripts, shapes', [
    ('iij,jk->ki', [(3, 3, 2), (2, 4)]),
    ('ij,jk,kl->il', [(2, 3), (3, 2), (2, 3)]),
    ('i,i,i->', [(3,), (3,), (3,)]),
    ('iii->i', [(2, 2, 2)]),
    ('ij->ji', [(2, 3)]),
])
def test_second_order(subscripts, shapes):
    xs = tuple(_m(numpy.float64, s, i) for i, s in enumerate(shapes))
    fn = lambda *v: F.einsum(subscripts, *v)  # NOQA
    y = fn(*xs).array
    gy = _m(numpy.float64, y.shape, 7)
    gradient_check.check_backward(fn, xs, gy)
    ggx = tuple(_m(numpy.float64, s, 10 + i) for i, s in enumerate(shapes))
    gradient_check.check_double_backward(fn, xs, gy, ggx)


@pytest.mark.parametrize('args, error, match', [
    (('ij,jk->ik', (2, 3)), ValueError, 'subscripts'),
    (('ij->ij', (2, 3), (3,)), ValueError, 'subscripts'),
    (('...i->i', (2, 3)), ValueError, 'summing'),
    (('i..j->ij', (2, 3)), ValueError, 'ellipsis'),
    (('ij->ii', (2, 2)), ValueError, 'more than once'),
    (('i->j', (2,)), ValueError, 'does not appear'),
    (('ij->i->j', (2, 2)), ValueError, '->'),
])
def test_refused(args, error, match):
    subscripts, shapes = args[0], args[1:]
    with pytest.raises(error, match=match):
        F.einsum(subscripts, *[numpy.ones(s) for s in shapes])
