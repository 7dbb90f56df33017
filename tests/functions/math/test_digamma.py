"""digamma: exact values (psi(n) and psi(n + 1/2) from harmonic sums),
reflection for negative arguments, poles, and the gradient polygamma(1)."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

EULER = 0.5772156649015329


def _psi_integer(n):
    return -EULER + sum(1.0 / k for k in range(1, n))


def _psi_half(n):
    """psi(n + 1/2) = -gamma - 2 log 2 + sum_{k=1}^{n} 2 / (2k - 1)."""
    return -EULER - 2 * math.log(2) + sum(2.0 / (2 * k - 1)
                                          for k in range(1, n + 1))


@pytest.mark.parametrize('dtype', DTYPES)
class TestDiGamma:

    def test_values(self, dtype):
        y = F.digamma(typed([1, 2, 5, 0.5, 3.5], dtype))
        assert y.dtype == dtype
        assert_close(y, [_psi_integer(1), _psi_integer(2), _psi_integer(5),
                         _psi_half(0), _psi_half(3)], dtype)

    def test_gradient_is_trigamma(self, dtype):
        # psi'(1) = pi^2 / 6, psi'(1/2) = pi^2 / 2
        x = chainer.Variable(typed([1, 0.5], dtype))
        gx, = grads(F.digamma(x), (x,))
        assert_close(gx, [math.pi ** 2 / 6, math.pi ** 2 / 2], dtype)


def test_float64_exact_values():
    x = [float(n) for n in range(1, 40)] + [n + 0.5 for n in range(40)]
    expected = [_psi_integer(n) for n in range(1, 40)] + [
        _psi_half(n) for n in range(40)]
    numpy.testing.assert_allclose(F.digamma(numpy.array(x)).array, expected,
                                  rtol=1e-14)


def test_reflection():
    # psi(1 - x) - psi(x) = pi cot(pi x)
    x = numpy.array([-3.3, -1.75, -0.4, -12.6])
    lhs = F.digamma(1 - x).array - F.digamma(x).array
    numpy.testing.assert_allclose(lhs, math.pi / numpy.tan(math.pi * x),
                                  rtol=1e-12)


def test_poles_are_nan():
    y = F.digamma(numpy.array([0.0, -1.0, -5.0])).array
    assert numpy.isnan(y).all()
