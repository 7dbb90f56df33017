"""erfcinv: it inverts math.erfc, tiny arguments included, its values at
the ends and outside, and the gradient -sqrt(pi)/2 exp(y^2)."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, grads, typed


@pytest.mark.parametrize('dtype', DTYPES)
class TestErfcInv:

    def test_inverts_erfc(self, dtype):
        y = [-1.5, -0.2, 0.0, 0.4, 1.2]
        x = F.erfcinv(typed([math.erfc(v) for v in y], dtype))
        assert x.dtype == dtype
        tol = {numpy.float16: 2e-2, numpy.float32: 1e-5}.get(dtype, 1e-13)
        numpy.testing.assert_allclose(x.array.astype(float), y, rtol=tol,
                                      atol=tol)

    def test_gradient(self, dtype):
        x = chainer.Variable(typed([1.0, math.erfc(1)], dtype))
        gx, = grads(F.erfcinv(x), (x,))
        c = -math.sqrt(math.pi) / 2
        numpy.testing.assert_allclose(
            gx.astype(float), [c, c * math.e],
            rtol={numpy.float16: 1e-2}.get(dtype, 1e-5))


def test_tiny_arguments():
    # 1 - x rounds to 1 here: erfinv(1 - x) would be inf.
    for y in (5.0, 10.0, 26.0):
        x = math.erfc(y)
        back = F.erfcinv(numpy.array([x])).array[0]
        numpy.testing.assert_allclose(back, y, rtol=1e-13)


def test_ends_and_outside():
    with numpy.errstate(invalid='ignore'):
        y = F.erfcinv(numpy.array([0.0, 2.0, -0.5, 2.5, numpy.nan, 1.0]))
    y = y.array
    numpy.testing.assert_array_equal(y[[0, 1, 5]], [numpy.inf, -numpy.inf,
                                                    0])
    assert numpy.isnan(y[2:5]).all()
