"""FactorizedNoisyLinear and to_factorized_noisy: initial values, the
forward pass against NumPy with the same seeded noise, hand-computed
gradients, and swapping the linear layers of models."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L

from chainer_rl import links

from array_testing import host


def signed_sqrt(x):
    return numpy.sign(x) * numpy.sqrt(numpy.abs(x))


def test_initial_values():
    numpy.random.seed(0)
    layer = links.FactorizedNoisyLinear(L.Linear(16, 5), sigma_scale=0.4)
    bound = 1 / math.sqrt(16)
    for p in (layer.mu.W, layer.mu.b):
        assert numpy.abs(host(p)).max() <= bound
        assert host(p).std() > bound / 4
    numpy.testing.assert_allclose(host(layer.sigma.W), 0.4 / 4)
    numpy.testing.assert_allclose(host(layer.sigma.b), 0.4 / 4)
    assert sorted(n for n, _ in layer.namedparams()) == [
        '/mu/W', '/mu/b', '/sigma/W', '/sigma/b']


def test_forward_matches_numpy_with_same_noise(device):
    numpy.random.seed(1)
    layer = links.FactorizedNoisyLinear(L.Linear(3, 2))
    layer.to_device(device)
    x = numpy.random.standard_normal((4, 3)).astype(numpy.float32)
    numpy.random.seed(7)
    y = host(layer(device.send(x)))
    numpy.random.seed(7)
    eps = signed_sqrt(numpy.random.standard_normal(5))
    e_in, e_out = eps[:3], eps[3:]
    W = host(layer.mu.W) + host(layer.sigma.W) * numpy.outer(e_out, e_in)
    b = host(layer.mu.b) + host(layer.sigma.b) * e_out
    numpy.testing.assert_allclose(y, x @ W.T + b, rtol=1e-5, atol=1e-6)
    # Fresh noise at every call.
    assert not numpy.allclose(host(layer(device.send(x))), y)


def test_gradients_by_hand(device):
    numpy.random.seed(2)
    layer = links.FactorizedNoisyLinear(L.Linear(3, 2))
    layer.to_device(device)
    x = numpy.random.standard_normal((4, 3)).astype(numpy.float32)
    gy = numpy.random.standard_normal((4, 2)).astype(numpy.float32)
    numpy.random.seed(3)
    y = layer(device.send(x))
    layer.cleargrads()
    F.sum(y * device.send(gy)).backward()
    numpy.random.seed(3)
    eps = signed_sqrt(numpy.random.standard_normal(5))
    e_in, e_out = eps[:3], eps[3:]
    gW = gy.T @ x
    numpy.testing.assert_allclose(host(layer.mu.W.grad), gW, rtol=1e-5)
    numpy.testing.assert_allclose(host(layer.sigma.W.grad),
                                  gW * numpy.outer(e_out, e_in), rtol=1e-4,
                                  atol=1e-6)
    numpy.testing.assert_allclose(host(layer.mu.b.grad), gy.sum(0),
                                  rtol=1e-5)
    numpy.testing.assert_allclose(host(layer.sigma.b.grad),
                                  gy.sum(0) * e_out, rtol=1e-4, atol=1e-6)


def test_lazy_input_size_and_no_bias(device):
    numpy.random.seed(4)
    layer = links.FactorizedNoisyLinear(L.Linear(None, 3, nobias=True),
                                        sigma_scale=0.5)
    layer.to_device(device)
    assert layer.mu.W.array is None and layer.nobias
    y = layer(device.send(numpy.ones((2, 2, 2), numpy.float32)))
    assert y.shape == (2, 3)
    assert layer.mu.W.shape == (3, 4)
    numpy.testing.assert_allclose(host(layer.sigma.W), 0.5 / 2)
    assert numpy.abs(host(layer.mu.W)).max() <= 0.5
    assert layer.mu.b is None and layer.sigma.b is None


def test_checks_arguments():
    with pytest.raises(TypeError, match='FactorizedNoisyLinear: mu_link must'
                                        ' be a chainer_core.links.Linear'):
        links.FactorizedNoisyLinear(L.Convolution2D(1, 1, 1))
    with pytest.raises(ValueError, match='sigma_scale must not be negative'):
        links.FactorizedNoisyLinear(L.Linear(2, 2), sigma_scale=-1)
    with pytest.raises(TypeError, match='to_factorized_noisy: link must be'):
        links.to_factorized_noisy(L.Linear)


class _Net(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.body = links.Sequence(L.Linear(3, 4), F.relu,
                                       links.MLP(4, 4, [4]))
            self.head = L.Linear(4, 2)
            self.conv = L.Convolution2D(1, 1, 1)

    def forward(self, x):
        return self.head(F.relu(self.body(x)))


def test_to_factorized_noisy_swaps_linear_layers(device):
    numpy.random.seed(5)
    net = _Net()
    net.to_device(device)
    links.to_factorized_noisy(net, sigma_scale=0.3)
    noisy = [name for name, link in net.namedlinks()
             if isinstance(link, links.FactorizedNoisyLinear)]
    assert noisy == ['/body/0', '/body/1/hidden_layers/0',
                     '/body/1/output', '/head']
    assert isinstance(net.conv, L.Convolution2D)
    assert isinstance(net.body.layers[0], links.FactorizedNoisyLinear)
    numpy.testing.assert_allclose(host(net.head.sigma.W), 0.3 / 2)
    assert net.head.mu.W.device == device
    x = device.send(numpy.ones((2, 3), numpy.float32))
    assert net(x).shape == (2, 2)
    names = sorted(name for name, _ in net.namedparams())
    links.to_factorized_noisy(net)
    assert sorted(name for name, _ in net.namedparams()) == names


def test_to_factorized_noisy_refuses_plain_chainlist():
    with pytest.raises(TypeError, match='plain ChainList'):
        links.to_factorized_noisy(chainer.ChainList(L.Linear(2, 2)))
