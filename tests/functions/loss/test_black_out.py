"""black_out: the loss formula, reduce, gradients by complex-step
differentiation of the formula, second order, and argument errors."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

T = numpy.array([1, 3, 4], numpy.int32)
SAMPLES = numpy.array([[0, 2], [1, 5], [4, 0]], numpy.int32)


def _inputs(dtype, seed=0):
    rng = numpy.random.RandomState(seed)
    x = chainer.Variable(rng.uniform(-1, 1, (3, 4)).astype(dtype))
    W = chainer.Variable(rng.uniform(-1, 1, (6, 4)).astype(dtype))
    return x, W


def _ref(x, W):
    out = []
    for b in range(3):
        s = W[[T[b]] + list(SAMPLES[b])].dot(x[b])
        p = numpy.exp(s) / numpy.exp(s).sum()
        out.append(-numpy.log(p[0]) - numpy.log(1 - p[1:]).sum())
    return numpy.array(out)


def _widen(v):
    return v.array.astype(numpy.float64)


@dtype_param
class TestBlackOut:

    def test_mean(self, dtype):
        x, W = _inputs(dtype)
        loss = F.black_out(x, T, W, SAMPLES)
        assert loss.shape == () and loss.dtype == dtype
        assert_close(loss, _ref(_widen(x), _widen(W)).mean(), dtype)

    def test_reduce_no(self, dtype):
        x, W = _inputs(dtype)
        loss = F.black_out(x, T, W, SAMPLES, reduce='no')
        assert loss.shape == (3,)
        assert_close(loss, _ref(_widen(x), _widen(W)), dtype)

    def test_gradient_of_x(self, dtype):
        x, W = _inputs(dtype)
        gx, = grads(F.black_out(x, T, W, SAMPLES, reduce='no'), (x,))
        x_, W_ = _widen(x), _widen(W)
        # Complex-step derivatives of the formula: exact to rounding.
        expected = numpy.zeros((3, 4))
        for i in numpy.ndindex(3, 4):
            step = numpy.zeros((3, 4), complex)
            step[i] = 1e-30j
            expected[i] = _ref(x_ + step, W_).sum().imag / 1e-30
        assert_close(gx, expected, dtype)

    def test_second_order(self, dtype):
        x, W = _inputs(dtype)
        gx, gW = chainer.grad([F.black_out(x, T, W, SAMPLES)], [x, W],
                              enable_double_backprop=True)
        ggx, ggW = grads(F.sum(gx * gx) + F.sum(gW * gW), (x, W))
        assert ggx.shape == (3, 4) and ggW.shape == (6, 4)

    def test_bad_arguments(self, dtype):
        x, W = _inputs(dtype)
        with pytest.raises(ValueError, match='reduce'):
            F.black_out(x, T, W, SAMPLES, reduce='sum')
        with pytest.raises(TypeError, match='samples'):
            F.black_out(x, T, W, SAMPLES[:2])
        with pytest.raises(ValueError, match='black_out'):
            F.black_out(x, T, W, SAMPLES + 3)
