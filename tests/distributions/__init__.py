"""Tests of the distributions.

Shared here: float64 references of the special functions written with
``math`` and NumPy only (independent of chainer_core.functions), tolerances
by dtype, and small helpers.
"""
import math

import numpy

import chainer_core

DTYPES = (numpy.float32, numpy.float64)

_TOL = {
    numpy.dtype(numpy.float16): dict(atol=3e-3, rtol=3e-3),
    numpy.dtype(numpy.float32): dict(atol=2e-5, rtol=2e-5),
    numpy.dtype(numpy.float64): dict(atol=1e-12, rtol=1e-10),
}

EULER = 0.5772156649015329


def assert_close(actual, expected, dtype, scale=1.0):
    """``actual`` (array or Variable) equals ``expected`` within the
    rounding of ``dtype`` (loosened by ``scale``)."""
    if isinstance(actual, chainer_core.Variable):
        actual = actual.array
    tol = _TOL[numpy.dtype(dtype)]
    numpy.testing.assert_allclose(
        numpy.asarray(actual, dtype=numpy.float64),
        numpy.asarray(expected, dtype=numpy.float64),
        atol=tol['atol'] * scale, rtol=tol['rtol'] * scale)


def vectorize(fn):
    vf = numpy.vectorize(fn, otypes=[numpy.float64])
    return lambda x: vf(numpy.asarray(x, dtype=numpy.float64))


lgamma = vectorize(math.lgamma)
erf = vectorize(math.erf)
erfc = vectorize(math.erfc)


def _digamma_scalar(x):
    # Recurrence up to x >= 12, then the asymptotic series.
    acc = 0.0
    while x < 12.0:
        acc -= 1.0 / x
        x += 1.0
    inv2 = 1.0 / (x * x)
    series = inv2 * (1.0 / 12 - inv2 * (1.0 / 120 - inv2 * (
        1.0 / 252 - inv2 * (1.0 / 240 - inv2 * (1.0 / 132)))))
    return acc + math.log(x) - 0.5 / x - series


digamma = vectorize(_digamma_scalar)


def ndtr(z):
    return 0.5 * erfc(-numpy.asarray(z, dtype=numpy.float64) / math.sqrt(2))


def _ndtri_scalar(p):
    # Bisection on the reference distribution function, then Newton steps.
    lo, hi = -40.0, 40.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if 0.5 * math.erfc(-mid / math.sqrt(2)) < p:
            lo = mid
        else:
            hi = mid
    z = 0.5 * (lo + hi)
    for _ in range(3):
        f = 0.5 * math.erfc(-z / math.sqrt(2)) - p
        z -= f / (math.exp(-0.5 * z * z) / math.sqrt(2 * math.pi))
    return z


ndtri = vectorize(_ndtri_scalar)


def lbeta(a, b):
    return lgamma(a) + lgamma(b) - lgamma(numpy.asarray(a) + b)


def rand(rng, shape, low, high):
    return rng.uniform(low, high, size=shape)
