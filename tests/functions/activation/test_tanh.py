"""tanh: odd, saturating, gradient 1 - y^2."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestTanh:

    def test_known_values(self, dtype):
        # tanh(log 2) = (2 - 1/2) / (2 + 1/2)
        y = F.tanh(typed([0, math.log(2), -math.log(2)], dtype))
        assert y.dtype == dtype
        assert_close(y, [0, 0.6, -0.6], dtype)

    def test_saturates(self, dtype):
        with numpy.errstate(over='raise', invalid='raise'):
            y = F.tanh(typed([-50, 50], dtype))
        assert_close(y, [-1, 1], dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(typed([0, math.log(2)], dtype))
        gx, = grads(F.tanh(x), (x,))
        assert_close(gx, [1, 1 - 0.36], dtype)
