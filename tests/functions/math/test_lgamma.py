"""lgamma: float64 accuracy against Python's math.lgamma (negative
arguments and the zeros at 1 and 2 included), poles, and the gradient
digamma."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed


@pytest.mark.parametrize('dtype', DTYPES)
class TestLGamma:

    def test_values(self, dtype):
        x = [0.5, 1, 2, 3.5, 6, -0.5, -1.5]
        y = F.lgamma(typed(x, dtype))
        assert y.dtype == dtype
        assert_close(y, [math.lgamma(v) for v in x], dtype)

    def test_gradient_is_digamma(self, dtype):
        # psi(1) = -gamma, psi(2) = 1 - gamma
        x = chainer.Variable(typed([1, 2], dtype))
        gx, = grads(F.lgamma(x), (x,))
        g = 0.5772156649015329
        assert_close(gx, [-g, 1 - g], dtype)


def test_float64_accuracy():
    x = numpy.concatenate([numpy.linspace(0.01, 30, 1000),
                           [1e-8, 0.49, 2.51, 9.99, 10.0, 171.5, 1e5]])
    expected = [math.lgamma(v) for v in x]
    # math.lgamma is itself accurate to about 1e-16 absolute near 1 and 2.
    numpy.testing.assert_allclose(F.lgamma(x).array, expected, rtol=1e-14,
                                  atol=1e-15)


def test_float64_negative_arguments():
    x = numpy.linspace(-9.95, -0.05, 100)
    expected = [math.lgamma(v) for v in x]
    # Near its zeros on the negative axis lgamma is ill-conditioned: the
    # error is absolute there.
    numpy.testing.assert_allclose(F.lgamma(x).array, expected, rtol=1e-14,
                                  atol=1e-14)


def test_relative_accuracy_at_the_zeros_one_and_two():
    # lgamma(1 + e) = -gamma e + pi^2/12 e^2 + O(e^3), and
    # lgamma(2 + e) = (1 - gamma) e + (pi^2/12 - 1/2) e^2 + O(e^3).
    g = 0.5772156649015329
    c = math.pi ** 2 / 12
    near = numpy.array([1e-9, -3e-10, 2e-12])
    for base, c1, c2 in ((1.0, -g, c), (2.0, 1 - g, c - 0.5)):
        x = base + near
        e = x - base  # the offsets x really has
        numpy.testing.assert_allclose(F.lgamma(x).array, c1 * e + c2 * e * e,
                                      rtol=1e-14)


def test_poles_are_infinite():
    y = F.lgamma(numpy.array([0.0, -1.0, -7.0, numpy.inf])).array
    numpy.testing.assert_array_equal(y, numpy.inf)
