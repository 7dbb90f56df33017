"""softplus: log(1 + e^(beta x)) / beta, finite for large inputs, with
derivative sigmoid(beta x)."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _ref(x, beta):
    return [math.log1p(math.exp(beta * v)) / beta for v in x]


@dtype_param
class TestSoftplus:

    @pytest.mark.parametrize('beta', [1.0, 2.5, 0.5, -1.0, 3])
    def test_values(self, dtype, beta):
        x = [-2, -0.5, 0, 0.5, 2]
        y = F.softplus(typed(x, dtype), beta=beta)
        assert y.dtype == dtype
        assert_close(y, _ref(x, beta), dtype)

    def test_large_inputs_are_finite(self, dtype):
        big = 6e4 if dtype == numpy.float16 else 1e4
        with numpy.errstate(over='raise', invalid='raise'):
            y = F.softplus(typed([-big, big], dtype), beta=2.0)
        assert_close(y, [0, big], dtype)

    def test_tends_to_relu_for_large_beta(self, dtype):
        y = F.softplus(typed([-1, 1], dtype), beta=50.0)
        assert_close(y, [math.log1p(math.exp(-50)) / 50,
                         1 + math.log1p(math.exp(-50)) / 50], dtype)

    def test_gradient_and_second_derivative(self, dtype):
        beta = 2.0
        xs = [-1, 0, 0.5]
        x = chainer.Variable(typed(xs, dtype))
        gx, = chainer.grad([F.softplus(x, beta)], [x],
                           [numpy.ones(3, dtype=dtype)],
                           enable_double_backprop=True)
        s = [1 / (1 + math.exp(-beta * v)) for v in xs]
        assert_close(gx, s, dtype)
        ggx, = chainer.grad([gx], [x], [numpy.ones(3, dtype=dtype)])
        assert_close(ggx, [beta * v * (1 - v) for v in s], dtype)

    def test_beta_must_be_non_zero(self, dtype):
        with pytest.raises(ValueError, match='softplus.*beta'):
            F.softplus(typed([1], dtype), beta=0.0)
