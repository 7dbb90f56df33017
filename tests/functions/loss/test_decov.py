"""decov: the covariance of the centred activations with a zero diagonal
(reduce='no'), half its squared Frobenius norm, and the gradient."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

H = [[1, 0, 2], [3, 1, 2], [2, 2, 5]]


def _cov():
    h = numpy.array(H, float)
    c = (h - h.mean(0)).T.dot(h - h.mean(0)) / 3
    numpy.fill_diagonal(c, 0)
    return c


@dtype_param
class TestDeCov:

    def test_reduce_no_has_zero_diagonal(self, dtype):
        c = F.decov(typed(H, dtype), reduce='no')
        assert c.shape == (3, 3) and c.dtype == dtype
        assert_close(c, _cov(), dtype)
        assert not numpy.diag(c.array).any()

    def test_half_squared_sum(self, dtype):
        loss = F.decov(typed(H, dtype))
        assert loss.shape == ()
        assert_close(loss, (_cov() ** 2).sum() / 2, dtype)

    def test_uncorrelated_units_give_zero(self, dtype):
        h = typed([[1, 1], [-1, 1], [1, -1], [-1, -1]], dtype)
        assert_close(F.decov(h), 0, dtype)

    def test_gradient(self, dtype):
        h = chainer.Variable(typed(H, dtype))
        gh, = grads(F.decov(h), (h,))
        hc = numpy.array(H) - numpy.mean(H, 0)
        assert_close(gh, 2 * hc.dot(_cov()) / 3, dtype)

    def test_bad_reduce(self, dtype):
        with pytest.raises(ValueError, match='reduce'):
            F.decov(typed(H, dtype), reduce='sum')
