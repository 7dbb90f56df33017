"""erfc: float64 accuracy against Python's math.erfc, also far in the
tail where 1 - erf would be 0, limits, and its gradient."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed


@pytest.mark.parametrize('dtype', DTYPES)
class TestErfc:

    def test_values(self, dtype):
        x = [-1.5, 0, 0.5, 2, 3]
        y = F.erfc(typed(x, dtype))
        assert y.dtype == dtype
        assert_close(y, [math.erfc(v) for v in x], dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(typed([0, 1], dtype))
        gx, = grads(F.erfc(x), (x,))
        c = -2 / math.sqrt(math.pi)
        assert_close(gx, [c, c * math.exp(-1)], dtype)


def test_float64_relative_accuracy_in_the_tail():
    x = numpy.concatenate([numpy.linspace(-5, 26, 1241), [9.5, 20.25]])
    expected = numpy.array([math.erfc(v) for v in x])
    numpy.testing.assert_allclose(F.erfc(x).array, expected, rtol=1e-14)
    assert F.erfc(numpy.array(10.0)).array > 0


def test_limits_and_nan():
    y = F.erfc(numpy.array([numpy.inf, -numpy.inf, numpy.nan])).array
    numpy.testing.assert_array_equal(y[:2], [0, 2])
    assert numpy.isnan(y[2])
