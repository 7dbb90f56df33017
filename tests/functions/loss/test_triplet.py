"""triplet: Chainer v7's example values, margin and reduce, the gradients
of the three inputs where the hinge is active, and parameter
validation."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

A = [[-2.0, 3.0, 0.5], [5.0, 2.0, -0.5]]
P = [[-2.1, 2.8, 0.5], [4.9, 2.0, -0.4]]
N = [[-2.1, 2.7, 0.7], [4.9, 2.0, -0.7]]


def _vars(dtype):
    return tuple(chainer.Variable(typed(v, dtype)) for v in (A, P, N))


@dtype_param
class TestTriplet:

    def test_example(self, dtype):
        loss = F.triplet(*_vars(dtype))
        assert loss.shape == () and loss.dtype == dtype
        assert_close(loss, 0.14, dtype)

    def test_reduce_no_and_margin(self, dtype):
        loss = F.triplet(*_vars(dtype), reduce='no')
        assert loss.shape == (2,)
        assert_close(loss, [0.11, 0.17], dtype)
        assert_close(F.triplet(*_vars(dtype), margin=0.5), 0.44, dtype)

    def test_gradients(self, dtype):
        a, p, n = _vars(dtype)
        ga, gp, gn = grads(F.triplet(a, p, n, reduce='no'), (a, p, n))
        a_, p_, n_ = (typed(v, dtype).astype(numpy.float64)
                      for v in (A, P, N))
        assert_close(ga, 2 * (n_ - p_), dtype)
        assert_close(gp, 2 * (p_ - a_), dtype)
        assert_close(gn, 2 * (a_ - n_), dtype)

    def test_satisfied_triplets_have_no_loss_nor_gradient(self, dtype):
        # Each positive is closer than its negative by more than 0.01.
        a, p, n = _vars(dtype)
        loss = F.triplet(a, p, n, margin=0.01, reduce='no')
        assert_close(loss, [0, 0], dtype)
        ga, gp, gn = grads(loss, (a, p, n))
        for g in (ga, gp, gn):
            assert_close(g, numpy.zeros((2, 3)), dtype)

    def test_bad_margin(self, dtype):
        with pytest.raises(ValueError, match='margin'):
            F.triplet(*_vars(dtype), margin=0)

    def test_bad_reduce(self, dtype):
        with pytest.raises(ValueError, match='reduce'):
            F.triplet(*_vars(dtype), reduce='sum')
