"""batch_l2_norm_squared: per-sample sums of squares and the gradient
2 x gy."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed


@pytest.mark.parametrize('dtype', DTYPES)
class TestBatchL2NormSquared:

    def test_forward(self, dtype):
        x = typed([[[3, 4]], [[1, -2]]], dtype)
        y = F.batch_l2_norm_squared(x)
        assert y.shape == (2,) and y.dtype == dtype
        assert_close(y, [25, 5], dtype)

    def test_gradient(self, dtype):
        x0 = typed([[1, 2], [3, -1]], dtype)
        x = chainer.Variable(x0)
        gx, = grads(F.batch_l2_norm_squared(x), (x,), typed([1, 2], dtype))
        assert_close(gx, [[2, 4], [12, -4]], dtype)


def test_needs_two_axes():
    with pytest.raises(Exception, match='x.ndim'):
        F.batch_l2_norm_squared(numpy.zeros(3))
