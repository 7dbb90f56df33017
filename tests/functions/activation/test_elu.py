"""elu and selu: alpha (e^x - 1) below zero, the identity (times scale)
above; smooth at 0 for alpha = 1; derivatives of every order."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


@dtype_param
class TestELU:

    @pytest.mark.parametrize('alpha', [1.0, 0.5, 2])
    def test_values(self, dtype, alpha):
        y = F.elu(typed([-2, -0.5, 0, 1.5], dtype), alpha=alpha)
        assert y.dtype == dtype
        assert_close(y, [alpha * math.expm1(-2), alpha * math.expm1(-0.5),
                         0, 1.5], dtype)

    def test_saturates_at_minus_alpha_without_overflow(self, dtype):
        big = 6e4 if dtype == numpy.float16 else 1e4
        with numpy.errstate(over='raise', invalid='raise'):
            y = F.elu(typed([-big, big], dtype), alpha=0.5)
        assert_close(y, [-0.5, big], dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(typed([-1, 0, 2], dtype))
        gx, = grads(F.elu(x, alpha=0.5), (x,))
        assert_close(gx, [0.5 * math.exp(-1), 1, 1], dtype)

    def test_second_and_third_derivatives(self, dtype):
        x = chainer.Variable(typed([-1, -0.25, 2], dtype))
        gx, = chainer.grad([F.elu(x, alpha=2.0)], [x],
                           [numpy.ones(3, dtype=dtype)],
                           enable_double_backprop=True)
        ggx, = chainer.grad([gx], [x], [numpy.ones(3, dtype=dtype)],
                            enable_double_backprop=True)
        expected = [2 * math.exp(-1), 2 * math.exp(-0.25), 0]
        assert_close(ggx, expected, dtype)
        gggx, = chainer.grad([ggx], [x], [numpy.ones(3, dtype=dtype)])
        assert_close(gggx, expected, dtype)

    def test_alpha_must_be_a_number(self, dtype):
        with pytest.raises(TypeError, match='elu.*alpha'):
            F.elu(typed([1], dtype), alpha=None)


@dtype_param
class TestSELU:

    def test_default_constants(self, dtype):
        x = typed([-1.5, -0.5, 0.5, 2], dtype)
        expected = [SELU_SCALE * (SELU_ALPHA * math.expm1(v) if v < 0 else v)
                    for v in (-1.5, -0.5, 0.5, 2)]
        y = F.selu(x)
        assert y.dtype == dtype
        assert_close(y, expected, dtype)

    def test_is_scaled_elu(self, dtype):
        x = typed([-1.5, -0.5, 0.5, 2], dtype)
        assert_close(F.selu(x, alpha=0.7, scale=3.0),
                     3.0 * F.elu(x, alpha=0.7).array.astype('f8'), dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(typed([-1, 2], dtype))
        gx, = grads(F.selu(x, alpha=2.0, scale=0.5), (x,))
        assert_close(gx, [0.5 * 2.0 * math.exp(-1), 0.5], dtype)

    def test_second_derivative(self, dtype):
        x = chainer.Variable(typed([-1, 2], dtype))
        gx, = chainer.grad([F.selu(x)], [x], [numpy.ones(2, dtype=dtype)],
                           enable_double_backprop=True)
        ggx, = chainer.grad([gx], [x], [numpy.ones(2, dtype=dtype)])
        assert_close(ggx, [SELU_SCALE * SELU_ALPHA * math.exp(-1), 0], dtype)
