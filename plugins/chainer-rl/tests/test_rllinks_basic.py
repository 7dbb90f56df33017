"""chainer_rl.links: MLP, MLPBN, the DQN heads, Sequence and Branched,
against NumPy computations with their own weights, on every device."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import gradient_check

from chainer_rl import links

from array_testing import host
from array_testing import linear_np


def relu_np(x):
    return numpy.maximum(x, 0)


def test_mlp_values_and_names(device):
    numpy.random.seed(0)
    mlp = links.MLP(3, 2, [5, 4], nonlinearity=F.tanh)
    mlp.to_device(device)
    x = numpy.random.standard_normal((6, 3)).astype(numpy.float32)
    y = mlp(device.send(x))
    h = numpy.tanh(linear_np(mlp.hidden_layers[0], x))
    h = numpy.tanh(linear_np(mlp.hidden_layers[1], h))
    numpy.testing.assert_allclose(host(y), linear_np(mlp.output, h),
                                  rtol=1e-5, atol=1e-6)
    assert sorted(name for name, _ in mlp.namedparams()) == [
        '/hidden_layers/0/W', '/hidden_layers/0/b', '/hidden_layers/1/W',
        '/hidden_layers/1/b', '/output/W', '/output/b']


def test_mlp_without_hidden_layers_is_linear(device):
    mlp = links.MLP(3, 2, [])
    mlp.to_device(device)
    x = numpy.ones((1, 3), numpy.float32)
    numpy.testing.assert_allclose(host(mlp(device.send(x))),
                                  linear_np(mlp.output, x), rtol=1e-6)
    assert not hasattr(mlp, 'hidden_layers')


def test_mlp_last_wscale_and_lazy_input():
    numpy.random.seed(0)
    small = links.MLP(400, 300, [400], last_wscale=1e-2)
    # LeCun normal: std = wscale / sqrt(fan_in) = 0.01 / 20.
    assert abs(host(small.output.W).std() / 5e-4 - 1) < 0.02
    assert abs(host(small.hidden_layers[0].W).std() / 0.05 - 1) < 0.02
    lazy = links.MLP(None, 2, [3])
    assert lazy(numpy.ones((2, 7), numpy.float32)).shape == (2, 2)
    assert lazy.hidden_layers[0].W.shape == (3, 7)


def test_mlp_gradient(device):
    # Built in float64 so that the numerical gradient is accurate.
    with chainer.using_config('dtype', numpy.float64):
        mlp = links.MLP(3, 2, [4])
    mlp.to_device(device)
    rng = numpy.random.RandomState(0)
    x = rng.standard_normal((2, 3))
    gy = rng.standard_normal((2, 2))
    gradient_check.check_backward(
        mlp, device.send(x), device.send(gy), params=tuple(mlp.params()))


def test_mlp_checks_arguments():
    with pytest.raises(ValueError, match='MLP: out_size must be at least 1'):
        links.MLP(3, 0, [])
    with pytest.raises(TypeError, match=r'MLP: hidden_sizes\[1\] must be an '
                                        'int'):
        links.MLP(3, 2, [4, 2.5])
    with pytest.raises(TypeError, match='MLP: hidden_sizes must be a '
                                        'sequence'):
        links.MLP(3, 2, 4)
    with pytest.raises(TypeError, match='nonlinearity must be callable'):
        links.MLP(3, 2, [4], nonlinearity='relu')


def test_mlp_bn(device):
    numpy.random.seed(1)
    mlp = links.MLPBN(3, 2, [4], normalize_input=True, normalize_output=True)
    mlp.to_device(device)
    x = numpy.random.standard_normal((5, 3)).astype(numpy.float32)
    with chainer.using_config('train', False):
        y = host(mlp(device.send(x)))
    # Fresh running statistics (mean 0, variance 1) and gamma 1, beta 0:
    # every normalization divides by sqrt(1 + eps).
    scale = 1 / numpy.sqrt(1 + 2e-5)
    h = linear_np(mlp.hidden_layers[0].linear, x * scale) * scale
    expected = linear_np(mlp.output, relu_np(h)) * scale
    numpy.testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-5)
    # In training mode the batch statistics normalize each column.
    y = host(mlp(device.send(x)))
    numpy.testing.assert_allclose(y.mean(axis=0), 0, atol=1e-5)
    with pytest.raises(ValueError, match='MLPBN: batch normalization'):
        mlp(device.send(x[:1]))


def test_dqn_heads(device):
    numpy.random.seed(0)
    x = numpy.random.uniform(0, 1, (2, 4, 84, 84)).astype(numpy.float32)
    nature = links.NatureDQNHead()
    nature.to_device(device)
    y = host(nature(device.send(x)))
    assert y.shape == (2, 512) and (y >= 0).all()
    numpy.testing.assert_array_equal(host(nature[0].b), numpy.float32(0.1))
    assert [name for name, _ in nature.namedparams()][:2] == ['/0/W',
                                                               '/0/b']
    nips = links.NIPSDQNHead(n_input_channels=1, n_output_channels=8,
                             activation=F.tanh, bias=0.0)
    nips.to_device(device)
    y = host(nips(device.send(x[:, :1])))
    assert y.shape == (2, 8) and numpy.abs(y).max() <= 1
    assert nips.n_output_channels == 8 and nips.n_input_channels == 1
    with pytest.raises(ValueError, match='NatureDQNHead: n_input_channels'):
        links.NatureDQNHead(n_input_channels=0)


def test_sequence_routes_keywords(device):
    seen = {}

    def scale(x, factor=1.0):
        seen['factor'] = factor
        return x * factor

    def anything(x, **kwargs):
        seen['anything'] = sorted(kwargs)
        return x

    lin = L.Linear(2, 2)
    seq = links.Sequence(lin, scale, anything, F.relu)
    seq.to_device(device)
    x = numpy.array([[1.0, -2.0]], numpy.float32)
    y = seq(device.send(x), factor=3.0)
    numpy.testing.assert_allclose(host(y), relu_np(3 * linear_np(lin, x)),
                                  rtol=1e-6)
    assert seen == {'factor': 3.0, 'anything': ['factor']}
    assert [name for name, _ in seq.namedparams()] == ['/0/W', '/0/b']
    assert seq.layers == [lin, scale, anything, F.relu]
    with pytest.raises(TypeError, match='Sequence: layer 1 must be '
                                        'callable'):
        links.Sequence(lin, 3)


def test_sequence_passes_tuples_whole_and_keeps_lstm_state():
    seq = links.Sequence(lambda x: (x, 2 * x), lambda pair: pair[1] - pair[0])
    numpy.testing.assert_array_equal(seq(numpy.ones(2)), [1.0, 1.0])
    rec = links.Sequence(L.LSTM(2, 3))
    x = numpy.ones((1, 2), numpy.float32)
    first = rec(x).array
    second = rec(x).array
    assert not numpy.allclose(first, second)
    rec.reset_state()
    numpy.testing.assert_array_equal(rec(x).array, first)


def test_branched(device):
    a, b = L.Linear(2, 3), L.Linear(2, 1)
    br = links.Branched(a, b)
    br.to_device(device)
    x = numpy.array([[0.5, 1.0]], numpy.float32)
    ya, yb = br(device.send(x))
    numpy.testing.assert_allclose(host(ya), linear_np(a, x), rtol=1e-6)
    numpy.testing.assert_allclose(host(yb), linear_np(b, x), rtol=1e-6)
    with pytest.raises(TypeError, match='Branched: argument 1 must be a '
                                        'Link'):
        links.Branched(a, F.relu)


def test_copies_keep_the_container_class():
    seq = links.Sequence(L.Linear(2, 2), lambda x, factor=1.0: x * factor)
    head = links.NIPSDQNHead(n_output_channels=4)
    for mode in ('copy', 'share', 'init'):
        c = seq.copy(mode)
        assert type(c) is links.Sequence and len(c.layers) == 2
        assert (c[0].W.array is seq[0].W.array) == (mode == 'share')
        x = numpy.ones((1, 2), numpy.float32)
        numpy.testing.assert_allclose(c(x, factor=0.0).array, 0)
        h = head.copy(mode)
        assert type(h) is links.NIPSDQNHead and h.n_output_channels == 4
        assert h.activation is head.activation
