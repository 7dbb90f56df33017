"""Op-specific tests on @numpy (the conformance suite covers every device).

Shared here: the dtypes the classes are parametrised over, a comparison
whose tolerance follows the dtype, and gradients by backprop.
"""
import numpy

import chainer_core

DTYPES = (numpy.float16, numpy.float32, numpy.float64)

_TOL = {
    numpy.dtype(numpy.float16): dict(atol=2e-3, rtol=2e-3),
    numpy.dtype(numpy.float32): dict(atol=1e-6, rtol=1e-5),
    numpy.dtype(numpy.float64): dict(atol=1e-12, rtol=1e-10),
}


def assert_close(actual, expected, dtype):
    """``actual`` (array or Variable) equals ``expected`` within the
    rounding of ``dtype``."""
    if isinstance(actual, chainer_core.Variable):
        actual = actual.array
    numpy.testing.assert_allclose(
        numpy.asarray(actual, dtype=numpy.float64),
        numpy.asarray(expected, dtype=numpy.float64),
        **_TOL[numpy.dtype(dtype)])


def typed(values, dtype):
    return numpy.asarray(values, dtype=dtype)


def grads(y, xs, gy=None):
    """Gradients of ``y`` (weighted by ``gy``, ones when omitted) with
    respect to the Variables ``xs``, as arrays (None where unconnected)."""
    if gy is None:
        gy = numpy.ones(y.shape, dtype=y.dtype)
    gxs = chainer_core.grad([y], list(xs), [gy])
    return [None if g is None else g.array for g in gxs]
