"""exp and log: values at known points, gradients, and that they invert
each other."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestExp:

    def test_known_values(self, dtype):
        y = F.exp(typed([0, 1, -1], dtype))
        assert y.dtype == dtype
        assert_close(y, [1, math.e, 1 / math.e], dtype)

    def test_gradient_is_the_output(self, dtype):
        x = chainer.Variable(typed([0, 1, -1], dtype))
        gx, = grads(F.exp(x), (x,))
        assert_close(gx, [1, math.e, 1 / math.e], dtype)


@dtype_param
class TestLog:

    def test_known_values(self, dtype):
        y = F.log(typed([1, math.e, 0.5], dtype))
        assert y.dtype == dtype
        assert_close(y, [0, 1, -math.log(2)], dtype)

    def test_gradient_is_the_reciprocal(self, dtype):
        x = chainer.Variable(typed([1, 2, 0.5], dtype))
        gx, = grads(F.log(x), (x,))
        assert_close(gx, [1, 0.5, 2], dtype)

    def test_inverts_exp(self, dtype):
        x = numpy.linspace(-2, 2, 5).astype(dtype)
        assert_close(F.log(F.exp(x)), x, dtype)


@dtype_param
class TestLog2:

    def test_known_values(self, dtype):
        y = F.log2(typed([1, 2, 8, 0.5], dtype))
        assert y.dtype == dtype
        assert_close(y, [0, 1, 3, -1], dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(typed([1, 2, 4], dtype))
        gx, = grads(F.log2(x), (x,))
        assert_close(gx, [1 / math.log(2), 0.5 / math.log(2),
                          0.25 / math.log(2)], dtype)


@dtype_param
class TestLog10:

    def test_known_values(self, dtype):
        y = F.log10(typed([1, 10, 1000, 0.1], dtype))
        assert y.dtype == dtype
        assert_close(y, [0, 1, 3, -1], dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(typed([1, 10], dtype))
        gx, = grads(F.log10(x), (x,))
        assert_close(gx, [1 / math.log(10), 0.1 / math.log(10)], dtype)
