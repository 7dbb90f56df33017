"""erfinv: it inverts erf to float64 accuracy (also near +-1), its values
at the ends and outside, and the gradient sqrt(pi)/2 exp(y^2)."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed


@pytest.mark.parametrize('dtype', DTYPES)
class TestErfInv:

    def test_inverts_erf(self, dtype):
        x = [-1.5, -0.2, 0, 0.4, 1.2]
        y = F.erfinv(typed([math.erf(v) for v in x], dtype))
        assert y.dtype == dtype
        tol = {numpy.float16: 2e-2, numpy.float32: 1e-5}.get(dtype)
        if tol is None:
            assert_close(y, x, dtype)
        else:
            numpy.testing.assert_allclose(y.array.astype(float), x,
                                          rtol=tol, atol=tol)

    def test_gradient(self, dtype):
        x = chainer.Variable(typed([0, math.erf(1)], dtype))
        gx, = grads(F.erfinv(x), (x,))
        c = math.sqrt(math.pi) / 2
        numpy.testing.assert_allclose(
            gx.astype(float), [c, c * math.e],
            rtol={numpy.float16: 1e-2}.get(dtype, 1e-5))


def test_float64_round_trip():
    x = numpy.concatenate([numpy.linspace(-5.5, 5.5, 1101), [1e-200]])
    y = numpy.array([math.erf(v) for v in x])
    back = F.erfinv(y).array
    # erfinv is ill-conditioned near +-1: compare through erf, and the
    # arguments where erf is not yet 1.
    numpy.testing.assert_allclose([math.erf(v) for v in back], y,
                                  rtol=1e-15)
    inner = numpy.abs(x) < 1.5
    numpy.testing.assert_allclose(back[inner], x[inner], rtol=1e-14)


def test_ends_and_outside():
    with numpy.errstate(invalid='ignore'):
        y = F.erfinv(numpy.array([1.0, -1.0, 1.5, numpy.nan, 0.0])).array
    numpy.testing.assert_array_equal(y[[0, 1, 4]], [numpy.inf, -numpy.inf,
                                                    0])
    assert numpy.isnan(y[2]) and numpy.isnan(y[3])
