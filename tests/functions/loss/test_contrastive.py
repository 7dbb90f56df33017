"""contrastive: Chainer v7's example values, margin and reduce, zero loss
for dissimilar pairs beyond the margin, the gradients of both inputs, and
parameter validation."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

X0 = [[-2.0, 3.0, 0.5], [5.0, 2.0, -0.5]]
X1 = [[-1.0, 3.0, 1.0], [3.5, 0.5, -2.0]]


def _y(values=(1, 0)):
    return numpy.array(values, dtype=numpy.int32)


@dtype_param
class TestContrastive:

    def test_example(self, dtype):
        loss = F.contrastive(typed(X0, dtype), typed(X1, dtype), _y())
        assert loss.shape == () and loss.dtype == dtype
        assert_close(loss, 0.3125, dtype)

    def test_reduce_no(self, dtype):
        loss = F.contrastive(typed(X0, dtype), typed(X1, dtype), _y(),
                             reduce='no')
        assert loss.shape == (2,)
        assert_close(loss, [0.625, 0], dtype)

    def test_larger_margin(self, dtype):
        d = math.sqrt(3 * 1.5 ** 2)
        loss = F.contrastive(typed(X0, dtype), typed(X1, dtype), _y(),
                             margin=3.0, reduce='no')
        assert_close(loss, [0.625, (3 - d) ** 2 / 2], dtype)

    def test_gradients(self, dtype):
        x0 = chainer.Variable(typed(X0, dtype))
        x1 = chainer.Variable(typed(X1, dtype))
        g0, g1 = grads(F.contrastive(x0, x1, _y(), margin=3.0,
                                     reduce='no'), (x0, x1))
        diff = numpy.array(X0) - numpy.array(X1)
        d = math.sqrt((diff[1] ** 2).sum())
        expected = numpy.stack([diff[0], -(3 - d) * diff[1] / d])
        assert_close(g0, expected, dtype)
        assert_close(g1, -expected, dtype)

    def test_far_dissimilar_pair_has_no_gradient(self, dtype):
        x0 = chainer.Variable(typed(X0, dtype))
        g0, = grads(F.contrastive(x0, typed(X1, dtype), _y((0, 0))), (x0,))
        assert_close(g0, numpy.zeros((2, 3)), dtype)

    def test_bad_margin(self, dtype):
        with pytest.raises(ValueError, match='margin'):
            F.contrastive(typed(X0, dtype), typed(X1, dtype), _y(),
                          margin=0)

    def test_bad_reduce(self, dtype):
        with pytest.raises(ValueError, match='reduce'):
            F.contrastive(typed(X0, dtype), typed(X1, dtype), _y(),
                          reduce='sum')
