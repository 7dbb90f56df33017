"""sigmoid: symmetry, saturation without overflow, gradient y (1 - y)."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestSigmoid:

    def test_known_values(self, dtype):
        y = F.sigmoid(typed([0, math.log(3)], dtype))
        assert y.dtype == dtype
        assert_close(y, [0.5, 0.75], dtype)

    def test_symmetry(self, dtype):
        x = numpy.linspace(-4, 4, 9).astype(dtype)
        assert_close(F.sigmoid(-x), 1 - F.sigmoid(x).array.astype('f8'),
                     dtype)

    def test_saturates_without_overflow(self, dtype):
        with numpy.errstate(over='raise', invalid='raise'):
            y = F.sigmoid(typed([-1e4 if dtype != numpy.float16 else -6e4,
                                 6e4], dtype))
        assert_close(y, [0, 1], dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(typed([0, math.log(3)], dtype))
        gx, = grads(F.sigmoid(x), (x,))
        assert_close(gx, [0.25, 0.75 * 0.25], dtype)
