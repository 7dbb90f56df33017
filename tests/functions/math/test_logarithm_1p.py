"""log1p: accuracy for small inputs, where log(1 + x) rounds, and its
gradient."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed


@pytest.mark.parametrize('dtype', DTYPES)
class TestLog1p:

    def test_known_values(self, dtype):
        y = F.log1p(typed([0, math.e - 1, -0.5], dtype))
        assert y.dtype == dtype
        assert_close(y, [0, 1, -math.log(2)], dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(typed([0, 1, -0.5], dtype))
        gx, = grads(F.log1p(x), (x,))
        assert_close(gx, [1, 0.5, 2], dtype)


def test_tiny_input_keeps_its_digits():
    # 1 + 1e-12 rounds in float64; log1p does not.
    y = F.log1p(numpy.array([1e-12, -1e-15]))
    numpy.testing.assert_allclose(y.array, [1e-12 - 5e-25, -1e-15],
                                  rtol=1e-15)
