"""TRPO: learning the ABC task (discrete with an observation normalizer,
continuous with vector envs), the natural-gradient step against a direct
solve, the line search's fallback, save/load and bad input."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L

from chainer_rl import links
from chainer_rl.agents.trpo import TRPO
from chainer_rl.distribution import SoftmaxDistribution
from chainer_rl.misc import conjugate_gradient
from chainer_rl.misc import set_random_seed
from chainer_rl.policies import SoftmaxPolicy

import policy_gradient_agents_testing as T


def _trpo(policy=None, vf=None, discrete=True, **kwargs):
    policy = policy or T.Policy(discrete)
    vf = vf or T.VFunction()
    opt = chainer.optimizers.Adam(1e-2)
    opt.setup(vf)
    params = dict(update_interval=200, max_kl=0.05, gamma=0.9,
                  entropy_coef=0.0, act_deterministically=True)
    params.update(kwargs)
    return TRPO(policy, vf, opt, **params)


def test_learns_abc_with_obs_normalizer():
    set_random_seed(0)
    agent = _trpo(obs_normalizer=links.EmpiricalNormalization(T.OBS_SIZE))
    T.train_single(agent, 2500, T.make_env(seed=0))
    assert T.greedy_returns(agent) == [1.0] * 10
    stats = dict(agent.get_statistics())
    assert list(stats) == ['average_value', 'average_entropy', 'average_kl',
                           'average_policy_step_size', 'explained_variance']
    assert 0 < stats['average_kl'] <= 0.05
    assert stats['average_policy_step_size'] > 0


def test_learns_continuous_abc_with_vector_env():
    set_random_seed(0)
    agent = _trpo(discrete=False, update_interval=400)
    T.train_batch(agent, 6000, [T.make_env(discrete=False, seed=i)
                                for i in range(4)])
    assert T.greedy_returns(agent, discrete=False) == [1.0] * 10


def _recurrent(head, hidden=24):
    # obs -> Linear -> GRU -> head
    return links.StatelessRecurrentSequential(
        L.Linear(T.OBS_SIZE, hidden), F.tanh,
        L.NStepGRU(1, hidden, hidden, 0), head)


@pytest.mark.slow
def test_recurrent_learns_partially_observable_abc():
    # double backpropagation through the GRU gives the Fisher products
    set_random_seed(0)
    agent = _trpo(
        policy=_recurrent(SoftmaxPolicy(L.Linear(24, T.ABC_SIZE))),
        vf=_recurrent(L.Linear(24, 1)), recurrent=True,
        update_interval=400, max_recurrent_sequence_len=8)
    T.train_batch(agent, 4000, [T.make_env(partially_observable=True, seed=i)
                                for i in range(4)])
    assert T.greedy_returns(agent, partially_observable=True) == [1.0] * 10


def test_conjugate_gradient_matches_a_direct_solve():
    rng = numpy.random.RandomState(0)
    a = rng.randn(6, 6)
    A = a @ a.T + 0.5 * numpy.eye(6)
    b = rng.randn(6)
    x = conjugate_gradient(lambda v: A @ v, b, max_iter=20)
    numpy.testing.assert_allclose(x, numpy.linalg.solve(A, b), rtol=1e-8)


class _LinearSoftmax(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l = L.Linear(T.OBS_SIZE, T.ABC_SIZE)

    def forward(self, x):
        return SoftmaxDistribution(self.l(x))


def test_natural_gradient_step_matches_a_direct_solve(device):
    # For logits z = W s + b the Fisher matrix of the mean KL is
    # mean_i J_i^T (diag(p_i) - p_i p_i^T) J_i and the surrogate's
    # gradient mean_i adv_i J_i^T (onehot(a_i) - p_i).
    set_random_seed(0)
    policy = _LinearSoftmax()
    W = policy.l.W.array.astype(numpy.float64)
    b = policy.l.b.array.astype(numpy.float64)
    policy.to_device(device)
    damping, max_kl = 0.1, 0.01
    agent = _trpo(policy=policy, vf=T.VFunction().to_device(device),
                  max_kl=max_kl, conjugate_gradient_damping=damping,
                  conjugate_gradient_max_iter=50)
    rng = numpy.random.RandomState(1)
    n = 16
    states = rng.randn(n, T.OBS_SIZE).astype(numpy.float32)
    actions = rng.randint(T.ABC_SIZE, size=n).astype(numpy.int32)
    advs = rng.randn(n).astype(numpy.float32)

    distrib = policy(device.send(states))
    log_prob_old = distrib.log_prob(device.send(actions)).array.copy()
    gain = agent._compute_gain(distrib.log_prob(device.send(actions)),
                               log_prob_old, distrib.entropy,
                               device.send(advs))
    step = agent._compute_kl_constrained_step(distrib, distrib.copy(), gain)
    step = chainer.get_device('@numpy').send(step)

    k, d = W.shape
    n_params = k * d + k          # ordered by name: '/l/W' then '/l/b'
    fisher = numpy.zeros((n_params, n_params))
    grad = numpy.zeros(n_params)
    for s, a, adv in zip(states.astype(numpy.float64), actions, advs):
        z = W @ s + b
        p = numpy.exp(z - z.max())
        p /= p.sum()
        J = numpy.zeros((k, n_params))
        for row in range(k):
            J[row, row * d:(row + 1) * d] = s
            J[row, k * d + row] = 1.0
        fisher += J.T @ (numpy.diag(p) - numpy.outer(p, p)) @ J / n
        grad += adv * J.T @ (numpy.eye(k)[a] - p) / n
    fisher += damping * numpy.eye(n_params)
    x = numpy.linalg.solve(fisher, grad)
    expected = x * numpy.sqrt(2 * max_kl / (x @ fisher @ x))
    numpy.testing.assert_allclose(step, expected, rtol=2e-3, atol=1e-6)


def test_line_search_keeps_the_policy_when_no_step_is_acceptable():
    set_random_seed(0)
    policy = _LinearSoftmax()
    agent = _trpo(policy=policy, line_search_max_backtrack=2)
    before = [p.array.copy() for p in policy.params()]
    # fake a rollout of two steps
    o = T.abc_observations()
    agent.batch_act_and_train([o[0]])
    agent.batch_observe_and_train([o[1]], [1.0], [False], [False])
    rollout = agent._rollout
    actions = numpy.asarray(rollout.actions).reshape(-1)
    log_probs = numpy.asarray(rollout.log_probs, numpy.float32).reshape(-1)
    advs = numpy.ones(1, numpy.float32)
    distrib = policy(numpy.stack([o[0]]))
    gain = agent._compute_gain(distrib.log_prob(actions), log_probs,
                               distrib.entropy, advs)
    # a huge random step: far outside the trust region even when halved
    huge = 100 * numpy.random.RandomState(0).randn(
        sum(p.size for p in policy.params())).astype(numpy.float32)
    accepted = agent._line_search(huge, rollout, None, actions, log_probs,
                                  advs, distrib.copy(), gain)
    assert not accepted
    for p, old in zip(policy.params(), before):
        numpy.testing.assert_array_equal(p.array, old)
    assert list(agent.policy_step_size_record) == [0.0]


def test_save_load_reproduces_greedy_actions(tmp_path):
    set_random_seed(0)
    agent = _trpo(obs_normalizer=links.EmpiricalNormalization(T.OBS_SIZE))
    T.train_single(agent, 500, T.make_env(seed=0))
    agent.save(str(tmp_path / 'trpo'))
    fresh = _trpo(obs_normalizer=links.EmpiricalNormalization(T.OBS_SIZE))
    fresh.load(str(tmp_path / 'trpo'))
    obs = T.abc_observations()
    numpy.testing.assert_array_equal(T.greedy_actions(agent, obs),
                                     T.greedy_actions(fresh, obs))
    numpy.testing.assert_array_equal(agent.obs_normalizer.mean,
                                     fresh.obs_normalizer.mean)


def test_bad_input_is_reported_with_names():
    agent = _trpo()
    good = numpy.zeros(T.OBS_SIZE, numpy.float32)
    with pytest.raises(ValueError, match=r'TRPO\.batch_act_and_train: the '
                       r'model rejected observations of shape \(2, 2\)'):
        agent.batch_act_and_train([numpy.zeros((2, 2), numpy.float32)])
    agent.batch_act_and_train([good])
    with pytest.raises(ValueError, match=r'TRPO\.batch_observe_and_train: '
                       r'batch_done must have one entry per env'):
        agent._batch_observe_train([good], [0.0], [[False, True]], [False])
    with pytest.raises(TypeError, match='TRPO: vf must be a chainer_core'):
        TRPO(T.Policy(), None, None)
    with pytest.raises(ValueError, match='TRPO: vf_optimizer must be set'):
        TRPO(T.Policy(), T.VFunction(), chainer.optimizers.Adam())
