"""forget: the values and gradients of the function it wraps, no graph
kept inside, the function run again in backward, double backprop, and
what it refuses."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed


def _f(a, b):
    return F.tanh(a) * b, a + b * b


@pytest.mark.parametrize('dtype', DTYPES)
class TestForget:

    def test_same_values_and_gradients(self, dtype):
        a0, b0 = typed([0.5, -1.0, 2.0], dtype), typed([1.5, 0.2, -0.7],
                                                       dtype)
        a, b = chainer.Variable(a0), chainer.Variable(b0)
        y1, y2 = F.forget(_f, a, b)
        ga, gb = grads(F.sum(y1 * y2), (a, b))
        ra, rb = chainer.Variable(a0), chainer.Variable(b0)
        r1, r2 = _f(ra, rb)
        ea, eb = grads(F.sum(r1 * r2), (ra, rb))
        assert_close(y1, r1.array, dtype)
        assert_close(y2, r2.array, dtype)
        assert_close(ga, ea, dtype)
        assert_close(gb, eb, dtype)

    def test_keeps_no_inner_graph(self, dtype):
        x = chainer.Variable(typed([1.0, 2.0], dtype))
        y = F.forget(lambda v: F.exp(v) * 2, x)
        assert type(y.creator).__name__ == 'Forget'
        assert y.creator.inputs[0] is x.node


def test_runs_func_again_in_backward():
    calls = []

    def func(v):
        calls.append(1)
        return v * v

    x = chainer.Variable(numpy.array(3.0))
    y = F.forget(func, x)
    assert len(calls) == 1
    y.backward()
    assert len(calls) == 2
    numpy.testing.assert_allclose(x.grad, 6.0)


def test_double_backprop():
    x = chainer.Variable(numpy.array([1.0, 2.0]))
    y = F.forget(lambda v: v * v * v, x)
    gx, = chainer.grad([F.sum(y)], [x], enable_double_backprop=True)
    ggx, = chainer.grad([F.sum(gx)], [x])
    numpy.testing.assert_allclose(ggx.array, [6.0, 12.0])


def test_array_inputs_get_no_gradient():
    x = chainer.Variable(numpy.array([1.0, 2.0]))
    y = F.forget(lambda a, b: a * b, x, numpy.array([3.0, 4.0]))
    F.sum(y).backward()
    numpy.testing.assert_allclose(x.grad, [3.0, 4.0])


@pytest.mark.parametrize('func,error', [
    (1, TypeError), (lambda v: v.array, RuntimeError),
    (lambda v: [v], RuntimeError)])
def test_refuses(func, error):
    with pytest.raises(error, match='forget'):
        F.forget(func, numpy.array([1.0]))
