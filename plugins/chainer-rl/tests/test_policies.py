"""chainer_rl.policies against NumPy computations with the policies' own
weights, on every device, and a gradient check through a Gaussian
policy's log-likelihood."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import gradient_check

from chainer_rl import distribution
from chainer_rl import links
from chainer_rl import policies

from array_testing import host
from array_testing import linear_np


def relu(x):
    return numpy.maximum(x, 0)


def softplus(x):
    return numpy.logaddexp(0, x)


OBS = numpy.random.RandomState(0).standard_normal((3, 4)).astype(
    numpy.float32)
LOW = numpy.array([-1.0, 0.0], numpy.float32)
HIGH = numpy.array([1.0, 4.0], numpy.float32)


def test_fc_softmax_policy(device):
    numpy.random.seed(0)
    pi = policies.FCSoftmaxPolicy(4, 3, n_hidden_layers=1,
                                  n_hidden_channels=5, beta=2.0,
                                  min_prob=0.1)
    pi.to_device(device)
    d = pi(device.send(OBS))
    assert isinstance(d, distribution.SoftmaxDistribution)
    logits = linear_np(pi.model.output,
                       relu(linear_np(pi.model.hidden_layers[0], OBS)))
    e = numpy.exp(2 * (logits - logits.max(1, keepdims=True)))
    p = e / e.sum(1, keepdims=True) * 0.7 + 0.1
    numpy.testing.assert_allclose(host(d.all_prob), p, rtol=1e-5)
    with pytest.raises(TypeError, match='SoftmaxPolicy: model must be a '
                                        'Link'):
        policies.SoftmaxPolicy(F.relu)


def test_mellowmax_policy(device):
    numpy.random.seed(0)
    pi = policies.MellowmaxPolicy(L.Linear(4, 3), omega=2.0)
    pi.to_device(device)
    d = pi(device.send(OBS))
    assert isinstance(d, distribution.MellowmaxDistribution)
    assert d.omega == 2.0
    numpy.testing.assert_allclose(host(d.values), linear_np(pi.model, OBS),
                                  rtol=1e-6)
    with pytest.raises(ValueError, match='MellowmaxPolicy: omega must be '
                                         'positive'):
        policies.MellowmaxPolicy(L.Linear(4, 3), omega=0)


@pytest.mark.parametrize('var_type', ['spherical', 'diagonal'])
def test_fc_gaussian_policy(device, var_type):
    numpy.random.seed(0)
    pi = policies.FCGaussianPolicy(
        4, 2, n_hidden_layers=1, n_hidden_channels=5, min_action=LOW,
        max_action=HIGH, bound_mean=True, var_type=var_type, var_bias=0.5,
        min_var=0.01)
    pi.to_device(device)
    d = pi(device.send(OBS))
    h = relu(linear_np(pi.hidden_layers[0], OBS))
    mean = (HIGH + LOW) / 2 + numpy.tanh(linear_np(pi.mean_layer, h)) * (
        HIGH - LOW) / 2
    var = softplus(linear_np(pi.var_layer, h)) + 0.01
    numpy.testing.assert_allclose(host(d.mean), mean, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(host(d.var),
                                  numpy.broadcast_to(var, (3, 2)),
                                  rtol=1e-5)
    assert pi.var_layer.W.shape[0] == (1 if var_type == 'spherical' else 2)
    numpy.testing.assert_array_equal(host(pi.var_layer.b), numpy.float32(0.5))
    assert [n for n, _ in pi.namedparams()][:4] == ['/0/W', '/0/b', '/1/W',
                                                    '/1/b']


def test_fc_gaussian_policy_gradient(device):
    with chainer.using_config('dtype', numpy.float64):
        pi = policies.FCGaussianPolicy(3, 2, n_hidden_layers=1,
                                       n_hidden_channels=4,
                                       var_type='diagonal')
    pi.to_device(device)
    rng = numpy.random.RandomState(1)
    actions = device.send(rng.standard_normal((2, 2)))
    gy = device.send(rng.standard_normal(2))

    def log_prob_and_entropy(x):
        d = pi(x)
        return d.log_prob(actions) + d.entropy

    gradient_check.check_backward(
        log_prob_and_entropy, device.send(rng.standard_normal((2, 3))), gy,
        params=tuple(pi.params()))


def test_state_independent_covariance(device):
    numpy.random.seed(0)
    pi = policies.FCGaussianPolicyWithStateIndependentCovariance(
        4, 2, n_hidden_layers=2, n_hidden_channels=5, var_type='diagonal',
        var_func=F.exp, var_param_init=-1.0)
    pi.to_device(device)
    d = pi(device.send(OBS))
    layers = [layer for layer in pi.hidden_layers
              if isinstance(layer, L.Linear)]
    h = relu(linear_np(layers[0], OBS))
    h = relu(linear_np(layers[1], h))
    numpy.testing.assert_allclose(host(d.mean), linear_np(layers[2], h),
                                  rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(host(d.var), numpy.exp(-1.0), rtol=1e-6)
    assert pi.var_param.shape == (2,)
    # No hidden layers: a linear mean.
    flat = policies.FCGaussianPolicyWithStateIndependentCovariance(4, 2)
    flat.to_device(device)
    d = flat(device.send(OBS))
    numpy.testing.assert_allclose(host(d.mean),
                                  linear_np(flat.hidden_layers[0], OBS),
                                  rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(host(d.var), softplus(0.0), rtol=1e-6)
    with pytest.raises(ValueError, match="var_type must be one of"):
        policies.FCGaussianPolicyWithStateIndependentCovariance(
            4, 2, var_type='full')


def test_fixed_covariance(device):
    numpy.random.seed(0)
    pi = policies.FCGaussianPolicyWithFixedCovariance(
        4, 2, numpy.array([0.5, 2.0]), n_hidden_layers=1,
        n_hidden_channels=5, min_action=LOW, max_action=HIGH,
        bound_mean=True)
    pi.to_device(device)
    d = pi(device.send(OBS))
    assert isinstance(d, distribution.GaussianDistribution)
    numpy.testing.assert_allclose(host(d.var), [[0.5, 2.0]] * 3)
    mean = host(d.mean)
    assert (mean >= LOW).all() and (mean <= HIGH).all()
    scalar = policies.FCGaussianPolicyWithFixedCovariance(4, 2, 0.3)
    scalar.to_device(device)
    numpy.testing.assert_allclose(host(scalar(device.send(OBS)).var), 0.3,
                                  rtol=1e-6)
    with pytest.raises(ValueError, match='var must be positive'):
        policies.FCGaussianPolicyWithFixedCovariance(4, 2, 0.0)
    with pytest.raises(ValueError, match='bound_mean needs min_action'):
        policies.FCGaussianPolicyWithFixedCovariance(4, 2, 1.0,
                                                     bound_mean=True)


def test_gaussian_head(device):
    head = policies.GaussianHeadWithStateIndependentCovariance(
        3, var_type='spherical', var_func=lambda p: F.exp(2 * p),
        var_param_init=0.5)
    pi = links.Sequence(L.Linear(4, 3), head)
    pi.to_device(device)
    d = pi(device.send(OBS))
    numpy.testing.assert_allclose(host(d.var), numpy.e, rtol=1e-6)
    numpy.testing.assert_allclose(host(d.mean), linear_np(pi[0], OBS),
                                  rtol=1e-5, atol=1e-6)
    # The variance parameter learns through the log-likelihood:
    # d/dp sum log N(0; m, e^(2p)) = sum(-1 + m^2 / e^(2p)).
    pi.cleargrads()
    F.sum(d.log_prob(device.send(numpy.zeros((3, 3), numpy.float32))))\
        .backward()
    m = host(d.mean)
    numpy.testing.assert_allclose(host(head.var_param.grad),
                                  [(-1 + m ** 2 / numpy.e).sum()],
                                  rtol=1e-4)


def test_linear_gaussian_policies(device):
    numpy.random.seed(0)
    diag = policies.LinearGaussianPolicyWithDiagonalCovariance(4, 2)
    sph = policies.LinearGaussianPolicyWithSphericalCovariance(4, 2)
    for pi in (diag, sph):
        pi.to_device(device)
        d = pi(device.send(OBS))
        numpy.testing.assert_allclose(host(d.mean),
                                      linear_np(pi.mean_layer, OBS),
                                      rtol=1e-5, atol=1e-6)
        var = softplus(linear_np(pi.var_layer, OBS))
        numpy.testing.assert_allclose(host(d.var),
                                      numpy.broadcast_to(var, (3, 2)),
                                      rtol=1e-5)


def test_deterministic_policies(device):
    numpy.random.seed(0)
    pi = policies.FCDeterministicPolicy(4, 1, 5, 2, min_action=LOW,
                                        max_action=HIGH)
    pi.to_device(device)
    d = pi(device.send(OBS))
    assert isinstance(d, distribution.ContinuousDeterministicDistribution)
    raw = linear_np(pi.model.output,
                    relu(linear_np(pi.model.hidden_layers[0], OBS)))
    numpy.testing.assert_allclose(
        host(d.sample()),
        (HIGH + LOW) / 2 + numpy.tanh(raw) * (HIGH - LOW) / 2, rtol=1e-5,
        atol=1e-6)
    free = policies.FCDeterministicPolicy(4, 0, None, 2, bound_action=False)
    free.to_device(device)
    numpy.testing.assert_allclose(host(free(device.send(OBS)).x),
                                  linear_np(free.model.output, OBS),
                                  rtol=1e-5, atol=1e-6)
    bn = policies.FCBNDeterministicPolicy(4, 1, 5, 2, min_action=LOW,
                                          max_action=HIGH)
    bn.to_device(device)
    with chainer.using_config('train', False):
        out = host(bn(device.send(OBS[:1])).x)
    assert out.shape == (1, 2) and (out >= LOW).all() and (out <= HIGH).all()
    custom = policies.ContinuousDeterministicPolicy(
        L.Linear(4, 2), model_call=lambda model, x: model(x) * 0,
        action_filter=lambda h: h + 1)
    custom.to_device(device)
    numpy.testing.assert_array_equal(host(custom(device.send(OBS)).x), 1)
    with pytest.raises(ValueError, match='FCDeterministicPolicy: '
                                         'bound_action needs min_action'):
        policies.FCDeterministicPolicy(4, 1, 5, 2)
