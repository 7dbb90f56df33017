"""bernoulli_nll: the negative log-likelihood of x under sigmoid(y), finite
for large logits, reduce='sum' and 'no', and the gradients -y and
sigmoid(y) - x."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

X = [[1, 0], [0.25, 1]]
Y = [[0, math.log(3)], [-1, 2]]


def _ref():
    x, y = numpy.array(X), numpy.array(Y)
    p = 1 / (1 + numpy.exp(-y))
    return -(x * numpy.log(p) + (1 - x) * numpy.log(1 - p))


@dtype_param
class TestBernoulliNLL:

    def test_sum(self, dtype):
        loss = F.bernoulli_nll(typed(X, dtype), typed(Y, dtype))
        assert loss.shape == () and loss.dtype == dtype
        assert_close(loss, _ref().sum(), dtype)

    def test_reduce_no(self, dtype):
        loss = F.bernoulli_nll(typed(X, dtype), typed(Y, dtype), reduce='no')
        assert loss.shape == (2, 2)
        assert_close(loss, _ref(), dtype)
        assert_close(loss.array[0, 0], math.log(2), dtype)

    def test_large_logits_are_finite(self, dtype):
        big = 6e4 if dtype == numpy.float16 else 1e4
        loss = F.bernoulli_nll(typed([1, 0, 0], dtype),
                               typed([big, -big, 100], dtype), reduce='no')
        assert_close(loss, [0, 0, 100], dtype)

    def test_gradients(self, dtype):
        x = chainer.Variable(typed(X, dtype))
        y = chainer.Variable(typed(Y, dtype))
        gx, gy = grads(F.bernoulli_nll(x, y), (x, y))
        assert_close(gx, -numpy.array(Y), dtype)
        assert_close(gy, 1 / (1 + numpy.exp(-numpy.array(Y))) -
                     numpy.array(X), dtype)

    def test_bad_reduce(self, dtype):
        with pytest.raises(ValueError, match='reduce'):
            F.bernoulli_nll(typed(X, dtype), typed(Y, dtype), reduce='no ')
