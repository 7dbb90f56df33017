"""hinge: Chainer v7's example values for L1 and L2, reduce='no', the
gradient (+-1 or +-2 margin where the margin is positive), and the norm
error, which is both a NotImplementedError (as in Chainer) and a
ValueError."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

X = [[-2.0, 3.0, 0.5], [5.0, 2.0, -0.5]]


def _t():
    return numpy.array([1, 0], dtype=numpy.int32)


@dtype_param
class TestHinge:

    def test_l1(self, dtype):
        loss = F.hinge(typed(X, dtype), _t())
        assert loss.shape == () and loss.dtype == dtype
        assert_close(loss, 2.5, dtype)

    def test_l1_reduce_no(self, dtype):
        loss = F.hinge(typed(X, dtype), _t(), reduce='no')
        assert loss.shape == (2, 3)
        assert_close(loss, [[0, 0, 1.5], [0, 3, 0.5]], dtype)

    def test_l2(self, dtype):
        assert_close(F.hinge(typed(X, dtype), _t(), norm='L2'), 5.75, dtype)
        loss = F.hinge(typed(X, dtype), _t(), norm='L2', reduce='no')
        assert_close(loss, [[0, 0, 2.25], [0, 9, 0.25]], dtype)

    def test_l1_gradient(self, dtype):
        x = chainer.Variable(typed(X, dtype))
        gx, = grads(F.hinge(x, _t()), (x,))
        assert_close(gx, [[0, 0, 0.5], [0, 0.5, 0.5]], dtype)

    def test_l2_gradient(self, dtype):
        x = chainer.Variable(typed(X, dtype))
        gx, = grads(F.hinge(x, _t(), norm='L2', reduce='no'), (x,))
        assert_close(gx, [[0, 0, 3], [0, 6, 1]], dtype)

    def test_label_score_below_one_is_penalised(self, dtype):
        x = chainer.Variable(typed([[0.25, -2.0]], dtype))
        t = numpy.array([0], dtype=numpy.int32)
        loss = F.hinge(x, t, reduce='no')
        assert_close(loss, [[0.75, 0]], dtype)
        assert_close(grads(loss, (x,))[0], [[-1, 0]], dtype)

    def test_bad_norm(self, dtype):
        with pytest.raises(NotImplementedError, match='norm'):
            F.hinge(typed(X, dtype), _t(), norm='L3')
        with pytest.raises(ValueError, match='norm'):
            F.hinge(typed(X, dtype), _t(), norm='l1')

    def test_label_out_of_range(self, dtype):
        with pytest.raises(ValueError, match='hinge'):
            F.hinge(typed(X, dtype), numpy.array([3, 0], numpy.int32))
