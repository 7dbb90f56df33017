"""erf: float64 accuracy against Python's math.erf, symmetry, limits, and
the gradient 2/sqrt(pi) exp(-x^2)."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed


@pytest.mark.parametrize('dtype', DTYPES)
class TestErf:

    def test_values(self, dtype):
        x = [-2, -0.5, 0, 0.3, 1, 1.7]
        y = F.erf(typed(x, dtype))
        assert y.dtype == dtype
        assert_close(y, [math.erf(v) for v in x], dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(typed([0, 1, -0.5], dtype))
        gx, = grads(F.erf(x), (x,))
        c = 2 / math.sqrt(math.pi)
        assert_close(gx, [c, c * math.exp(-1), c * math.exp(-0.25)], dtype)


def test_float64_accuracy():
    x = numpy.concatenate([numpy.linspace(-6, 6, 1201),
                           [1e-300, -1e-20, 1.1, 1.0999999999]])
    expected = [math.erf(v) for v in x]
    numpy.testing.assert_allclose(F.erf(x).array, expected, rtol=2e-15,
                                  atol=1e-300)


def test_limits_and_nan():
    y = F.erf(numpy.array([numpy.inf, -numpy.inf, numpy.nan, 30.0])).array
    numpy.testing.assert_array_equal(y[[0, 1, 3]], [1, -1, 1])
    assert numpy.isnan(y[2])
