"""expm1: accuracy for small inputs, where exp(x) - 1 cancels, and its
gradient."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed


@pytest.mark.parametrize('dtype', DTYPES)
class TestExpm1:

    def test_known_values(self, dtype):
        y = F.expm1(typed([0, 1, -1], dtype))
        assert y.dtype == dtype
        assert_close(y, [0, math.e - 1, 1 / math.e - 1], dtype)

    def test_gradient_is_exp(self, dtype):
        x = chainer.Variable(typed([0, 1, -1], dtype))
        gx, = grads(F.expm1(x), (x,))
        assert_close(gx, [1, math.e, 1 / math.e], dtype)


def test_tiny_input_keeps_its_digits():
    y = F.expm1(numpy.array([1e-12, -1e-15]))
    numpy.testing.assert_allclose(y.array, [1e-12 + 5e-25, -1e-15],
                                  rtol=1e-15)
