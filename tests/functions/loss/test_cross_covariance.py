"""cross_covariance: the covariance of the centred codes (reduce='no'),
half its squared Frobenius norm, independence of the means, and the
gradients."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

Y = [[1, 0], [3, 1], [2, 2]]
Z = [[0, 1, 1], [2, 1, 0], [1, 1, 2]]


def _cov():
    y, z = numpy.array(Y, float), numpy.array(Z, float)
    return (y - y.mean(0)).T.dot(z - z.mean(0)) / 3


@dtype_param
class TestCrossCovariance:

    def test_reduce_no_is_the_covariance(self, dtype):
        c = F.cross_covariance(typed(Y, dtype), typed(Z, dtype), reduce='no')
        assert c.shape == (2, 3) and c.dtype == dtype
        assert_close(c, [[2 / 3, 0, -1 / 3], [1 / 3, 0, 1 / 3]], dtype)

    def test_half_squared_sum(self, dtype):
        loss = F.cross_covariance(typed(Y, dtype), typed(Z, dtype))
        assert loss.shape == ()
        assert_close(loss, (4 / 9 + 1 / 9 + 1 / 9 + 1 / 9) / 2, dtype)

    def test_shifting_the_codes_changes_nothing(self, dtype):
        shifted = F.cross_covariance(typed(Y, dtype) + 5,
                                     typed(Z, dtype) - 3)
        assert_close(shifted, F.cross_covariance(
            typed(Y, dtype), typed(Z, dtype)).array, dtype)

    def test_gradients(self, dtype):
        y = chainer.Variable(typed(Y, dtype))
        z = chainer.Variable(typed(Z, dtype))
        gy, gz = grads(F.cross_covariance(y, z), (y, z))
        yc = numpy.array(Y) - numpy.mean(Y, 0)
        zc = numpy.array(Z) - numpy.mean(Z, 0)
        assert_close(gy, zc.dot(_cov().T) / 3, dtype)
        assert_close(gz, yc.dot(_cov()) / 3, dtype)

    def test_bad_reduce(self, dtype):
        with pytest.raises(ValueError, match='reduce'):
            F.cross_covariance(typed(Y, dtype), typed(Z, dtype),
                               reduce='mean')
