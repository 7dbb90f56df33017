"""arctanh: the inverse of tanh, and the gradient 1 / (1 - x^2)."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed


@pytest.mark.parametrize('dtype', DTYPES)
class TestArctanh:

    def test_inverts_tanh(self, dtype):
        y = [-2.0, -0.3, 0.0, 0.5, 1.5]
        x = typed([math.tanh(v) for v in y], dtype)
        out = F.arctanh(x)
        assert out.dtype == dtype
        expected = [0.5 * math.log((1 + float(v)) / (1 - float(v)))
                    for v in x]
        assert_close(out, expected, dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(typed([0.0, 0.5, -0.75], dtype))
        gx, = grads(F.arctanh(x), (x,))
        assert_close(gx, [1.0, 1 / 0.75, 1 / (1 - 0.5625)], dtype)


def test_ends():
    with numpy.errstate(divide='ignore', invalid='ignore'):
        y = F.arctanh(numpy.array([1.0, -1.0, 2.0])).array
    numpy.testing.assert_array_equal(y[:2], [numpy.inf, -numpy.inf])
    assert numpy.isnan(y[2])
