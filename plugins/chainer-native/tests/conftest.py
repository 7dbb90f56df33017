import numpy
import pytest

import chainer_native as cn


@pytest.fixture
def rng():
    return numpy.random.RandomState(0)


def numerical_grad(f, inputs, gy, eps=1e-6):
    """Central differences of sum(f(*inputs) * gy) in float64, per input."""
    grads = []
    for x in inputs:
        g = numpy.zeros_like(x)
        it = numpy.nditer(x, flags=['multi_index'])
        for _ in it:
            i = it.multi_index
            old = x[i]
            x[i] = old + eps
            yp = numpy.array(f(*[cn.asarray(v) for v in inputs]))
            x[i] = old - eps
            ym = numpy.array(f(*[cn.asarray(v) for v in inputs]))
            x[i] = old
            g[i] = numpy.sum((yp - ym) * gy) / (2 * eps)
        grads.append(g)
    return grads


def analytic_grad(f, inputs, gy):
    xs = [cn.array(x).require_grad() for x in inputs]
    y = f(*xs)
    y.grad = cn.asarray(gy)
    y.backward()
    return [numpy.asarray(x.grad) for x in xs]
