"""maximum: values, NaN propagation, gradients (ties go to x1, as in
Chainer), broadcasting."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed


@pytest.mark.parametrize('dtype', DTYPES)
class TestMaximum:

    def test_values(self, dtype):
        y = F.maximum(typed([1, -2, 3], dtype), typed([2, -3, 3], dtype))
        assert y.dtype == dtype
        assert_close(y, [2, -2, 3], dtype)

    def test_gradient_goes_to_the_larger_and_ties_to_x1(self, dtype):
        a = chainer.Variable(typed([1, -2, 3], dtype))
        b = chainer.Variable(typed([2, -3, 3], dtype))
        ga, gb = grads(F.maximum(a, b), (a, b))
        assert_close(ga, [0, 1, 1], dtype)
        assert_close(gb, [1, 0, 0], dtype)

    def test_broadcast_gradients_are_summed(self, dtype):
        a = chainer.Variable(typed([[0], [5]], dtype))
        b = chainer.Variable(typed([1, 2, 6], dtype))
        y = F.maximum(a, b)
        assert_close(y, [[1, 2, 6], [5, 5, 6]], dtype)
        ga, gb = grads(y, (a, b))
        assert_close(ga, [[0], [2]], dtype)
        assert_close(gb, [1, 1, 2], dtype)


def test_nan_propagates():
    y = F.maximum(numpy.array([numpy.nan, 1.0]), numpy.array([0.0, numpy.nan]))
    assert numpy.isnan(y.array).all()
