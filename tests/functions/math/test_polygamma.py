"""polygamma: order 0 is digamma, exact values of the higher orders
(zeta values), orders as an array, and the gradient (the next order)."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

ZETA3 = 1.2020569031595942


@pytest.mark.parametrize('dtype', DTYPES)
class TestPolyGamma:

    def test_exact_values(self, dtype):
        # psi1(1) = zeta(2), psi2(1) = -2 zeta(3), psi3(1) = 6 zeta(4),
        # psi1(1/2) = pi^2 / 2.
        x = typed([1, 1, 1, 0.5], dtype)
        n = numpy.array([1, 2, 3, 1])
        y = F.polygamma(n, x)
        assert y.dtype == dtype
        assert_close(y, [math.pi ** 2 / 6, -2 * ZETA3, math.pi ** 4 / 15,
                         math.pi ** 2 / 2], dtype)

    def test_order_zero_is_digamma(self, dtype):
        x = typed([0.3, 1.5, 4.0, -0.5], dtype)
        assert_close(F.polygamma(0, x), F.digamma(x).array, dtype)

    def test_gradient_is_the_next_order(self, dtype):
        x = chainer.Variable(typed([1, 2], dtype))
        gx, = grads(F.polygamma(1, x), (x,))
        assert_close(gx, [-2 * ZETA3, -2 * (ZETA3 - 1)], dtype)


def test_recurrence_in_float64():
    # psi_n(x + 1) = psi_n(x) + (-1)^n n! / x^(n+1), negative x included.
    x = numpy.array([-2.7, -0.3, 0.2, 1.9, 7.4, 25.0])
    for n in range(1, 5):
        step = (-1) ** n * math.factorial(n) / x ** (n + 1)
        here = F.polygamma(n, x).array
        error = numpy.abs(F.polygamma(n, x + 1).array - (here + step))
        # The sum may cancel: the error is relative to its terms.
        assert (error <= 1e-14 * (numpy.abs(here) + numpy.abs(step))).all()


def test_broadcasting_orders_and_negative_order():
    y = F.polygamma(numpy.array([[0], [1], [-1]]), numpy.array([1.0, 2.0]))
    assert y.shape == (3, 2)
    assert numpy.isnan(y.array[2]).all()
    numpy.testing.assert_allclose(y.array[1], [math.pi ** 2 / 6,
                                               math.pi ** 2 / 6 - 1])
