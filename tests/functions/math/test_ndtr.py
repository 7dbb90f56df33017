"""ndtr, log_ndtr and ndtri: against math.erfc (and bisection on it), in
the tails too, and their gradients."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed


def _ndtr(v):
    return 0.5 * math.erfc(-v / math.sqrt(2))


def _ndtri(p):
    """Bisection on the distribution function (in logarithms, so that the
    lower tail is resolved)."""
    lo, hi = -40.0, 40.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if _ndtr(mid) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


_X = [-5.0, -1.5, -0.3, 0.0, 0.7, 2.0, 4.0]
_P = [1e-6, 0.02, 0.3, 0.5, 0.8, 0.975, 0.999]
_TOL16 = dict(rtol=1e-2, atol=1e-3)


@pytest.mark.parametrize('dtype', DTYPES)
class TestNdtr:

    def test_forward(self, dtype):
        y = F.ndtr(typed(_X, dtype))
        assert y.dtype == dtype
        if dtype == numpy.float16:
            numpy.testing.assert_allclose(
                y.array.astype(float), [_ndtr(v) for v in _X], **_TOL16)
        else:
            assert_close(y, [_ndtr(float(dtype(v))) for v in _X], dtype)

    def test_gradient_is_the_density(self, dtype):
        x = chainer.Variable(typed([-1.0, 0.0, 2.0], dtype))
        gx, = grads(F.ndtr(x), (x,))
        expected = [math.exp(-v * v / 2) / math.sqrt(2 * math.pi)
                    for v in (-1.0, 0.0, 2.0)]
        numpy.testing.assert_allclose(gx.astype(float), expected,
                                      rtol=1e-2 if dtype == numpy.float16
                                      else 1e-6)


@pytest.mark.parametrize('dtype', DTYPES)
class TestLogNdtr:

    def test_forward(self, dtype):
        y = F.log_ndtr(typed(_X, dtype))
        expected = [math.log(_ndtr(float(dtype(v)))) for v in _X]
        if dtype == numpy.float16:
            numpy.testing.assert_allclose(y.array.astype(float), expected,
                                          **_TOL16)
        else:
            assert_close(y, expected, dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(typed([-3.0, 0.0, 1.0], dtype))
        gx, = grads(F.log_ndtr(x), (x,))
        expected = [math.exp(-v * v / 2) / math.sqrt(2 * math.pi) /
                    _ndtr(v) for v in (-3.0, 0.0, 1.0)]
        numpy.testing.assert_allclose(gx.astype(float), expected,
                                      rtol=1e-2 if dtype == numpy.float16
                                      else 1e-5)


@pytest.mark.parametrize('dtype', DTYPES)
class TestNdtri:

    def test_inverts_ndtr(self, dtype):
        p = typed(_P[1:] if dtype == numpy.float16 else _P, dtype)
        y = F.ndtri(p)
        expected = [_ndtri(float(v)) for v in p]
        if dtype == numpy.float16:
            numpy.testing.assert_allclose(y.array.astype(float), expected,
                                          **_TOL16)
        else:
            numpy.testing.assert_allclose(
                y.array, expected, atol=1e-14,
                rtol=1e-5 if dtype == numpy.float32 else 1e-12)

    def test_gradient(self, dtype):
        x = chainer.Variable(typed([0.5, 0.975], dtype))
        gx, = grads(F.ndtri(x), (x,))
        z = 1.959963984540054
        expected = [math.sqrt(2 * math.pi),
                    math.sqrt(2 * math.pi) * math.exp(z * z / 2)]
        numpy.testing.assert_allclose(gx.astype(float), expected,
                                      rtol=5e-2 if dtype == numpy.float16
                                      else 1e-5)


def test_tails_float64():
    # Far in the lower tail ndtr underflows; log_ndtr, by the asymptotic
    # series ndtr(x) = exp(-x^2/2) / (-x sqrt(2 pi)) (1 - t + 3 t^2 - ...)
    # with t = 1/x^2, stays finite and accurate.
    x = -40.0
    t = 1 / (x * x)
    series = (-x * x / 2 - math.log(-x * math.sqrt(2 * math.pi)) +
              math.log(1 - t + 3 * t ** 2 - 15 * t ** 3 + 105 * t ** 4))
    numpy.testing.assert_allclose(F.log_ndtr(numpy.array([x])).array,
                                  [series], rtol=1e-12)
    assert F.ndtr(numpy.array([-40.0])).array[0] < 1e-300
    numpy.testing.assert_allclose(F.log_ndtr(numpy.array([10.0])).array,
                                  [-_ndtr(-10.0)], rtol=1e-12)
    numpy.testing.assert_allclose(
        F.ndtri(numpy.array([1e-300])).array, [_ndtri(1e-300)], rtol=1e-12)
    numpy.testing.assert_allclose(
        F.ndtri(numpy.array([1 - 2 ** -40])).array,
        [-_ndtri(2 ** -40)], rtol=1e-10)


def test_ends_and_outside():
    with numpy.errstate(invalid='ignore', divide='ignore'):
        y = F.ndtri(numpy.array([0.0, 1.0, -0.1, 1.1, 0.5])).array
        ly = F.log_ndtr(numpy.array([-numpy.inf, numpy.inf])).array
    numpy.testing.assert_array_equal(y[[0, 1]], [-numpy.inf, numpy.inf])
    assert numpy.isnan(y[2]) and numpy.isnan(y[3])
    assert y[4] == 0 and not numpy.signbit(y[4])
    numpy.testing.assert_array_equal(ly, [-numpy.inf, 0.0])
