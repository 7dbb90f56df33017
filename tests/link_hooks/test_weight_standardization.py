"""WeightStandardization: outputs against the standardized weight computed
in NumPy, gradients through the standardization, lazy weights, errors."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import gradient_check
from chainer_core.link_hooks import WeightStandardization


def _standardized(W, eps):
    flat = W.reshape(len(W), -1)
    mu = flat.mean(axis=1, keepdims=True)
    var = ((flat - mu) ** 2).mean(axis=1, keepdims=True)
    return ((flat - mu) / numpy.sqrt(var + eps)).reshape(W.shape)


def _f64(make):
    with chainer.using_config('dtype', numpy.float64):
        return make()


@pytest.mark.parametrize('eps', [1e-6, 0.5])
def test_linear(eps):
    link = _f64(lambda: L.Linear(3, 4, initial_bias=0.2))
    W = link.W.array.copy()
    link.add_hook(WeightStandardization(eps=eps))
    x = numpy.random.RandomState(0).randn(2, 3)
    numpy.testing.assert_allclose(
        link(x).array, x @ _standardized(W, eps).T + 0.2, rtol=1e-12)
    # The parameter itself is untouched and back in place.
    assert isinstance(link.W, chainer.Parameter)
    numpy.testing.assert_array_equal(link.W.array, W)


def test_convolution():
    link = _f64(lambda: L.Convolution2D(2, 3, 2))
    W = link.W.array.copy()
    link.add_hook(WeightStandardization())
    x = numpy.random.RandomState(1).randn(1, 2, 4, 4)
    y = F.convolution_2d(x, _standardized(W, 1e-6), link.b.array).array
    numpy.testing.assert_allclose(link(x).array, y, rtol=1e-10)


def test_gradient_reaches_the_weight():
    link = _f64(lambda: L.Linear(3, 4))
    link.add_hook(WeightStandardization(eps=0.1))
    rng = numpy.random.RandomState(2)
    x = rng.randn(2, 3)
    gradient_check.check_backward(
        link, (x,), rng.randn(2, 4), params=(link.W, link.b), eps=1e-6,
        atol=1e-7, rtol=1e-6)


def test_lazy_weight():
    link = L.Linear(3)
    link.add_hook(WeightStandardization())
    y = link(numpy.ones((2, 5), numpy.float32))
    assert y.shape == (2, 3) and link.W.shape == (3, 5)


def test_name_and_errors():
    link = L.Linear(3, 4)
    link.add_hook(WeightStandardization(name='ws'))
    assert list(link.local_link_hooks) == ['ws']
    with pytest.raises(ValueError, match="WeightStandardization.*'V'"):
        L.Linear(3, 4).add_hook(WeightStandardization(weight_name='V'))
    with pytest.raises(TypeError):
        WeightStandardization(1e-3)
