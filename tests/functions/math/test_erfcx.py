"""erfcx: exp(x^2) erfc(x) from math.erfc where that is representable,
the asymptotic series where erfc underflows, and the gradient
2 x y - 2/sqrt(pi)."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed


def _asymptotic(x):
    """exp(x^2) erfc(x) ~ 1 / (x sqrt(pi)) sum_n (-1)^n (2n-1)!! /
    (2 x^2)^n, for large x."""
    total, term = 0.0, 1.0
    for n in range(12):
        total += term
        term *= -(2 * n + 1) / (2 * x * x)
    return total / (x * math.sqrt(math.pi))


@pytest.mark.parametrize('dtype', DTYPES)
class TestErfcx:

    def test_forward(self, dtype):
        x = [-2.0, -0.5, 0.0, 0.3, 1.1, 2.5]
        y = F.erfcx(typed(x, dtype))
        assert y.dtype == dtype
        expected = [math.exp(float(dtype(v)) ** 2) * math.erfc(
            float(dtype(v))) for v in x]
        if dtype == numpy.float16:
            numpy.testing.assert_allclose(y.array.astype(float), expected,
                                          rtol=2e-3)
        else:
            assert_close(y, expected, dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(typed([-1.0, 0.0, 2.0], dtype))
        gx, = grads(F.erfcx(x), (x,))
        expected = [2 * v * math.exp(v * v) * math.erfc(v) -
                    2 / math.sqrt(math.pi) for v in (-1.0, 0.0, 2.0)]
        numpy.testing.assert_allclose(
            gx.astype(float), expected, atol=1e-3,
            rtol=1e-2 if dtype == numpy.float16 else 1e-5)


def test_large_arguments():
    x = numpy.array([30.0, 100.0, 1e5])
    numpy.testing.assert_allclose(F.erfcx(x).array,
                                  [_asymptotic(v) for v in x], rtol=1e-14)
    # float32: erfc(10) is 2e-45, below its smallest normal.
    y = F.erfcx(numpy.array([10.0, 50.0], numpy.float32)).array
    numpy.testing.assert_allclose(y, [_asymptotic(10.0), _asymptotic(50.0)],
                                  rtol=1e-6)


def test_overflow_and_nan():
    with numpy.errstate(over='ignore'):
        y = F.erfcx(numpy.array([-30.0, -numpy.inf, numpy.inf,
                                 numpy.nan])).array
    numpy.testing.assert_array_equal(y[:3], [numpy.inf, numpy.inf, 0.0])
    assert numpy.isnan(y[3])
