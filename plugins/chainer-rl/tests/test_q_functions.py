"""chainer_rl.q_functions against NumPy computations with the models' own
weights, on every device: discrete, distributional, dueling, NAF's
quadratic, state-action, recurrent and implicit quantile Q-functions."""
import gymnasium as gym
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import gradient_check
from chainer_core import serializers

from chainer_rl import action_value
from chainer_rl import links
from chainer_rl import q_functions
from chainer_rl._functions import lower_triangular_matrix

from array_testing import host
from array_testing import linear_np


def mlp_np(mlp, x, act=lambda h: numpy.maximum(h, 0)):
    h = x
    if mlp.hidden_sizes:
        for layer in mlp.hidden_layers:
            h = act(linear_np(layer, h))
    return linear_np(mlp.output, h)


def softmax_np(x, axis):
    e = numpy.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


OBS = numpy.random.RandomState(0).standard_normal((3, 4)).astype(
    numpy.float32)
ACT = numpy.random.RandomState(1).uniform(-1, 1, (3, 2)).astype(
    numpy.float32)


def test_fc_discrete(device):
    numpy.random.seed(0)
    q = q_functions.FCStateQFunctionWithDiscreteAction(4, 3, 8, 2)
    q.to_device(device)
    av = q(device.send(OBS))
    assert isinstance(av, action_value.DiscreteActionValue)
    numpy.testing.assert_allclose(host(av.q_values), mlp_np(q.model, OBS),
                                  rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match='n_hidden_channels must be given'):
        q_functions.FCStateQFunctionWithDiscreteAction(4, 3, None, 1)
    with pytest.raises(TypeError, match='model must be a Link'):
        q_functions.SingleModelStateQFunctionWithDiscreteAction(F.relu)


def test_fc_distributional(device, tmp_path):
    numpy.random.seed(0)
    q = q_functions.DistributionalFCStateQFunctionWithDiscreteAction(
        4, 3, 5, -2.0, 2.0, 8, 1)
    q.to_device(device)
    av = q(device.send(OBS))
    assert isinstance(av, action_value.DistributionalDiscreteActionValue)
    numpy.testing.assert_allclose(host(q.z_values), [-2, -1, 0, 1, 2])
    logits = mlp_np(q.model[0], OBS).reshape(3, 3, 5)
    probs = softmax_np(logits, axis=2)
    numpy.testing.assert_allclose(host(av.q_dist), probs, rtol=1e-5,
                                  atol=1e-6)
    numpy.testing.assert_allclose(host(av.q_values),
                                  (probs * [-2, -1, 0, 1, 2]).sum(2),
                                  rtol=1e-5, atol=1e-6)
    path = str(tmp_path / 'q.npz')
    serializers.save_npz(path, q)
    other = q_functions.DistributionalFCStateQFunctionWithDiscreteAction(
        4, 3, 5, 0.0, 1.0, 8, 1)
    serializers.load_npz(path, other)
    numpy.testing.assert_allclose(host(other.z_values), [-2, -1, 0, 1, 2])
    with pytest.raises(ValueError, match='v_min must be below v_max'):
        q_functions.DistributionalFCStateQFunctionWithDiscreteAction(
            4, 3, 5, 1.0, 1.0, 8, 1)
    with pytest.raises(ValueError, match='n_atoms must be at least 2'):
        q_functions.DistributionalFCStateQFunctionWithDiscreteAction(
            4, 3, 1, 0.0, 1.0, 8, 1)


FRAMES = numpy.random.RandomState(3).uniform(0, 1, (2, 4, 84, 84)).astype(
    numpy.float32)


def _conv_features(q, x):
    h = x
    for layer in q.conv_layers:
        h = q.activation(layer(h))
    return host(h).reshape(len(x), -1)


def test_dueling_dqn(device):
    numpy.random.seed(0)
    q = q_functions.DuelingDQN(3)
    q.to_device(device)
    x = device.send(FRAMES)
    qv = host(q(x).q_values)
    h = _conv_features(q, x)
    a = mlp_np(q.a_stream, h)
    v = mlp_np(q.v_stream, h)
    expected = v + a - a.mean(axis=1, keepdims=True)
    numpy.testing.assert_allclose(qv, expected, rtol=1e-4, atol=1e-5)
    # The mean advantage is removed: Q averages to V.
    numpy.testing.assert_allclose(qv.mean(1), v[:, 0], rtol=1e-4, atol=1e-5)


def test_distributional_dueling_dqn(device):
    numpy.random.seed(0)
    q = q_functions.DistributionalDuelingDQN(3, 7, -5, 5)
    q.to_device(device)
    x = device.send(FRAMES)
    av = q(x)
    h = numpy.maximum(linear_np(q.main_stream, _conv_features(q, x)), 0)
    a = linear_np(q.a_stream, h[:, :512]).reshape(2, 3, 7)
    v = linear_np(q.v_stream, h[:, 512:]).reshape(2, 1, 7)
    probs = softmax_np(v + a - a.mean(axis=1, keepdims=True), axis=2)
    numpy.testing.assert_allclose(host(av.q_dist), probs, rtol=1e-4,
                                  atol=1e-6)
    numpy.testing.assert_allclose(host(av.z_values),
                                  numpy.linspace(-5, 5, 7), rtol=1e-6)
    # Rainbow: noisy layers in place of the linear ones.
    links.to_factorized_noisy(q)
    assert isinstance(q.main_stream, links.FactorizedNoisyLinear)
    assert q(x).q_values.shape == (2, 3)


def test_lower_triangular_matrix(device):
    diag = numpy.array([[1.0, 2.0, 3.0]], numpy.float32)
    non_diag = numpy.array([[4.0, 5.0, 6.0]], numpy.float32)
    m = host(lower_triangular_matrix(device.send(diag),
                                     device.send(non_diag)))
    numpy.testing.assert_array_equal(m, [[[1, 0, 0], [4, 2, 0], [5, 6, 3]]])
    rng = numpy.random.RandomState(0)
    gradient_check.check_backward(
        lower_triangular_matrix,
        (device.send(rng.standard_normal((2, 3))),
         device.send(rng.standard_normal((2, 3)))),
        device.send(rng.standard_normal((2, 3, 3))), dtype=numpy.float64)
    with pytest.raises(ValueError, match='lower_triangular_matrix: non_diag '
                                         'must have shape'):
        lower_triangular_matrix(diag, non_diag[:, :2])


@pytest.mark.parametrize('n_dim_action', [1, 3])
def test_fc_quadratic(device, n_dim_action):
    numpy.random.seed(0)
    low = numpy.full(n_dim_action, -0.5, numpy.float32)
    high = numpy.full(n_dim_action, 2.0, numpy.float32)
    space = gym.spaces.Box(low, high)
    q = q_functions.FCQuadraticStateQFunction(4, n_dim_action, 8, 2, space)
    q.to_device(device)
    av = q(device.send(OBS))
    assert isinstance(av, action_value.QuadraticActionValue)
    h = OBS
    for layer in q.hidden_layers:
        h = numpy.maximum(linear_np(layer, h), 0)
    mu = 0.75 + 1.25 * numpy.tanh(linear_np(q.mu, h))
    diag = numpy.exp(linear_np(q.mat_diag, h))
    tril = numpy.zeros((3, n_dim_action, n_dim_action))
    idx = numpy.arange(n_dim_action)
    tril[:, idx, idx] = diag
    if n_dim_action > 1:
        rows, cols = numpy.tril_indices(n_dim_action, -1)
        tril[:, rows, cols] = linear_np(q.mat_non_diag, h)
    mat = tril @ tril.transpose(0, 2, 1)
    numpy.testing.assert_allclose(host(av.mu), mu, rtol=1e-5)
    numpy.testing.assert_allclose(host(av.mat), mat, rtol=1e-4, atol=1e-6)
    assert (numpy.linalg.eigvalsh(host(av.mat)) > 0).all()
    numpy.testing.assert_allclose(host(av.greedy_actions), mu, rtol=1e-6)
    v = linear_np(q.v, h)[:, 0]
    numpy.testing.assert_allclose(host(av.max), v, rtol=1e-4, atol=1e-5)
    a = numpy.zeros((3, n_dim_action), numpy.float32)
    d = a - mu
    expected = -0.5 * numpy.einsum('bi,bij,bj->b', d, mat, d) + v
    numpy.testing.assert_allclose(host(av.evaluate_actions(a)), expected,
                                  rtol=1e-4, atol=1e-5)
    with pytest.raises(TypeError, match='action_space must have low and '
                                        'high'):
        q_functions.FCQuadraticStateQFunction(4, 2, 8, 1, None)


def test_state_action_q_functions(device):
    numpy.random.seed(0)
    x, a = device.send(OBS), device.send(ACT)
    sa = numpy.concatenate([OBS, ACT], axis=1)

    fc = q_functions.FCSAQFunction(4, 2, 8, 2, nonlinearity=F.tanh)
    fc.to_device(device)
    numpy.testing.assert_allclose(host(fc(x, a)), mlp_np(fc, sa, numpy.tanh),
                                  rtol=1e-5, atol=1e-6)

    late = q_functions.FCLateActionSAQFunction(4, 2, 8, 2)
    late.to_device(device)
    h = numpy.maximum(mlp_np(late.obs_mlp, OBS), 0)
    expected = mlp_np(late.mlp, numpy.concatenate([h, ACT], axis=1))
    numpy.testing.assert_allclose(host(late(x, a)), expected, rtol=1e-5,
                                  atol=1e-6)
    assert late.output is late.mlp.output
    assert '/output/W' not in dict(late.namedparams())

    for q in (q_functions.FCBNSAQFunction(4, 2, 8, 2),
              q_functions.FCBNLateActionSAQFunction(4, 2, 8, 2),
              q_functions.SingleModelStateActionQFunction(
                  q_functions.FCSAQFunction(4, 2, 8, 1))):
        q.to_device(device)
        assert q(x, a).shape == (3, 1)
        with chainer.using_config('train', False):
            assert q(x[:1], a[:1]).shape == (1, 1)

    with pytest.raises(ValueError, match='FCLateActionSAQFunction: '
                                         'n_hidden_layers must be at least'):
        q_functions.FCLateActionSAQFunction(4, 2, 8, 0)


def test_lstm_q_functions_keep_state(device):
    numpy.random.seed(0)
    x, a = device.send(OBS), device.send(ACT)
    for q, call in ((q_functions.FCLSTMStateQFunction(4, 3, 8, 1),
                     lambda q: q(x).q_values),
                    (q_functions.FCLSTMSAQFunction(4, 2, 8, 1),
                     lambda q: q(x, a))):
        q.to_device(device)
        first = host(call(q))
        state = q.get_state()
        second = host(call(q))
        assert not numpy.allclose(first, second)
        q.reset_state()
        numpy.testing.assert_allclose(host(call(q)), first, rtol=1e-6)
        q.set_state(state)
        numpy.testing.assert_allclose(host(call(q)), second, rtol=1e-6)


def test_cosine_basis(device):
    taus = numpy.array([[0.0, 0.25], [0.5, 1.0]], numpy.float32)
    emb = host(q_functions.cosine_basis_functions(device.send(taus), 3))
    expected = numpy.cos(numpy.pi * taus[..., None] * [1, 2, 3])
    numpy.testing.assert_allclose(emb, expected, atol=1e-6)
    cbl = q_functions.CosineBasisLinear(3, 5)
    cbl.to_device(device)
    y = host(cbl(device.send(taus)))
    assert y.shape == (2, 2, 5)
    numpy.testing.assert_allclose(
        y, linear_np(cbl.linear, expected.reshape(4, 3)).reshape(2, 2, 5),
        rtol=1e-5, atol=1e-6)


def _iqn_parts():
    return (links.Sequence(L.Linear(4, 6), F.relu),
            links.Sequence(q_functions.CosineBasisLinear(8, 6), F.relu),
            L.Linear(6, 3))


def test_implicit_quantile_q_function(device):
    numpy.random.seed(0)
    psi, phi, f = _iqn_parts()
    q = q_functions.ImplicitQuantileQFunction(psi, phi, f)
    q.to_device(device)
    taus = numpy.random.uniform(size=(3, 5)).astype(numpy.float32)
    av = q(device.send(OBS))(taus)
    assert isinstance(av, action_value.QuantileDiscreteActionValue)
    psi_x = numpy.maximum(linear_np(psi[0], OBS), 0)
    cos = numpy.cos(numpy.pi * taus[..., None] * numpy.arange(1, 9))
    phi_t = numpy.maximum(linear_np(phi[0].linear, cos), 0)
    expected = linear_np(f, (psi_x[:, None] * phi_t).reshape(15, 6))
    numpy.testing.assert_allclose(host(av.quantiles),
                                  expected.reshape(3, 5, 3), rtol=1e-5,
                                  atol=1e-6)
    with pytest.raises(ValueError, match=r'taus must have shape \(3, '
                                         r'n_taus\)'):
        q(device.send(OBS))(taus[:2])


def test_recurrent_implicit_quantile_q_function(device):
    numpy.random.seed(0)
    _, phi, f = _iqn_parts()
    psi = links.StatelessRecurrentSequential(L.Linear(4, 6), F.relu,
                                             L.NStepGRU(1, 6, 6, 0.0))
    q = q_functions.StatelessRecurrentImplicitQuantileQFunction(psi, phi, f)
    q.to_device(device)
    seqs = [device.send(OBS[:2]), device.send(OBS[2:])]
    tau2av, state = q.n_step_forward(seqs, None, output_mode='concat')
    av = tau2av(numpy.full((3, 2), 0.5, numpy.float32))
    assert av.quantiles.shape == (3, 2, 3)
    assert len(state) == 1
    tau2av, state = q(device.send(OBS[:2]), None)
    assert tau2av(numpy.full((2, 4), 0.5, numpy.float32)).q_values.shape == \
        (2, 3)
    with pytest.raises(ValueError, match="output_mode must be 'concat'"):
        q.n_step_forward(seqs, None, output_mode='split')


def test_fc_quadratic_gradient(device):
    space = gym.spaces.Box(-1.0, 1.0, (2,), numpy.float32)
    with chainer.using_config('dtype', numpy.float64):
        q = q_functions.FCQuadraticStateQFunction(3, 2, 4, 1, space)
    q.to_device(device)
    rng = numpy.random.RandomState(0)
    actions = device.send(rng.uniform(-1, 1, (2, 2)))

    def q_of_actions(x):
        return q(x).evaluate_actions(actions)

    gradient_check.check_backward(
        q_of_actions, device.send(rng.standard_normal((2, 3))),
        device.send(rng.standard_normal(2)), params=tuple(q.params()))
