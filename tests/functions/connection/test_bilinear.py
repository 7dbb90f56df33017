"""bilinear: e1^T W e2 per sample, the optional linear terms (all or
none), flattening of e1 and e2, and gradients."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _r(dtype, shape, seed):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


@dtype_param
class TestBilinear:

    def test_bilinear_form(self, dtype):
        e1, e2, W = _r(dtype, (3, 2), 0), _r(dtype, (3, 4), 1), \
            _r(dtype, (2, 4, 5), 2)
        y = F.bilinear(e1, e2, W)
        assert y.shape == (3, 5) and y.dtype == dtype
        e1d, e2d = e1.astype(numpy.float64), e2.astype(numpy.float64)
        for i in range(3):
            for k in range(5):
                assert_close(y[i, k], e1d[i] @ W[:, :, k] @ e2d[i], dtype)

    def test_linear_terms(self, dtype):
        e1, e2, W = _r(dtype, (3, 2), 0), _r(dtype, (3, 4), 1), \
            _r(dtype, (2, 4, 5), 2)
        V1, V2, b = _r(dtype, (2, 5), 3), _r(dtype, (4, 5), 4), \
            _r(dtype, (5,), 5)
        y = F.bilinear(e1, e2, W, V1, V2, b)
        expected = F.bilinear(e1, e2, W).array.astype(numpy.float64) + \
            e1.astype(numpy.float64) @ V1 + e2.astype(numpy.float64) @ V2 + b
        assert_close(y, expected, dtype)

    def test_linear_terms_all_or_none(self, dtype):
        e1, e2, W = _r(dtype, (3, 2), 0), _r(dtype, (3, 4), 1), \
            _r(dtype, (2, 4, 5), 2)
        with pytest.raises(ValueError, match='bilinear'):
            F.bilinear(e1, e2, W, V1=_r(dtype, (2, 5), 3))

    def test_trailing_axes_are_flattened(self, dtype):
        e1, e2, W = _r(dtype, (3, 2, 2), 0), _r(dtype, (3, 3), 1), \
            _r(dtype, (4, 3, 2), 2)
        assert_close(F.bilinear(e1, e2, W),
                     F.bilinear(e1.reshape(3, 4), e2, W).array, dtype)

    def test_gradients(self, dtype):
        e1 = chainer.Variable(_r(dtype, (3, 2, 1), 0))
        e2 = chainer.Variable(_r(dtype, (3, 4), 1))
        W = chainer.Variable(_r(dtype, (2, 4, 5), 2))
        V1 = chainer.Variable(_r(dtype, (2, 5), 3))
        V2 = chainer.Variable(_r(dtype, (4, 5), 4))
        b = chainer.Variable(_r(dtype, (5,), 5))
        ge1, ge2, gW, gV1, gV2, gb = grads(
            F.bilinear(e1, e2, W, V1, V2, b), (e1, e2, W, V1, V2, b))
        assert ge1.shape == (3, 2, 1)
        a1 = e1.array.reshape(3, 2).astype(numpy.float64)
        a2 = e2.array.astype(numpy.float64)
        assert_close(gb, numpy.full(5, 3), dtype)
        assert_close(gV1, numpy.broadcast_to(a1.sum(0)[:, None], (2, 5)),
                     dtype)
        assert_close(gW, numpy.broadcast_to(
            numpy.einsum('ij,ik->jk', a1, a2)[:, :, None], (2, 4, 5)), dtype)
        Wd = W.array.astype(numpy.float64)
        assert_close(ge2, a1 @ Wd.sum(axis=2) + V2.array.sum(axis=1), dtype)

    def test_double_backprop(self, dtype):
        e1 = chainer.Variable(_r(dtype, (3, 2), 0))
        e2 = chainer.Variable(_r(dtype, (3, 4), 1))
        W = chainer.Variable(_r(dtype, (2, 4, 5), 2))
        ge1, = chainer.grad([F.bilinear(e1, e2, W)], [e1],
                            enable_double_backprop=True)
        ge2, = chainer.grad([F.sum(ge1 * ge1)], [e2])
        assert ge2.shape == (3, 4) and numpy.abs(ge2.array).max() > 0
