import math

import numpy
import pytest

import chainer_core as chainer
from chainer_core import optimizers

from chainer_rl import agents
from chainer_rl import replay_buffers
from chainer_rl.agents.soft_actor_critic import SoftActorCritic
from chainer_rl.agents.soft_actor_critic import TemperatureHolder
from chainer_rl.replay_buffer import batch_experiences

import continuous_agents_testing as T


def host(x):
    return chainer.backend.CpuDevice().send(getattr(x, 'array', x))


def make_agent(device=None, policy=None, q_funcs=None, lr=3e-3,
               optimizer=optimizers.Adam, **kwargs):
    policy = policy if policy is not None else T.squashed_gaussian_policy()
    q1, q2 = T.twin_critics(policy, q_funcs, device)
    options = dict(replay_start_size=100, minibatch_size=32,
                   soft_update_tau=5e-2, entropy_target=-T.ABC_SIZE,
                   temperature_optimizer=optimizer(lr),
                   burnin_action_func=T.uniform_burnin())
    options.update(kwargs)
    return SoftActorCritic(
        policy, q1, q2, optimizer(lr).setup(policy), optimizer(lr).setup(q1),
        optimizer(lr).setup(q2), replay_buffers.ReplayBuffer(10 ** 5), 0.9,
        **options)


def test_exported():
    assert agents.SoftActorCritic is SoftActorCritic


def test_learns_abc_and_save_load_reproduces_actions(device, tmp_path):
    T.seed(0)
    agent = make_agent(device)
    assert str(agent.temperature_holder.device) == str(device)
    T.train_single(agent, T.make_env(), 1000)
    T.assert_solves_abc(agent)
    stats = dict(agent.get_statistics())
    assert set(stats) == {'average_q1', 'average_q2', 'average_q_func1_loss',
                          'average_q_func2_loss', 'n_updates',
                          'average_entropy', 'temperature'}
    assert stats['n_updates'] == agent.q_func1_optimizer.t > 0
    assert stats['temperature'] != 1.0
    assert all(numpy.isfinite(v) for v in stats.values())

    fresh = T.assert_load_reproduces(agent, lambda: make_agent(device),
                                     str(tmp_path / 'agent'))
    assert fresh.temperature == agent.temperature
    assert fresh.n_policy_updates == agent.n_policy_updates
    T.assert_solves_abc(fresh)


def test_learns_abc_batch_training():
    T.seed(0)
    agent = make_agent(update_interval=2)
    T.train_on_two_envs(agent)
    T.assert_solves_abc(agent)


def _hand_setup(device=None, **kwargs):
    obs_size, action_size = T.sizes()
    std = 0.3
    policy = T.LinearSquashedPolicy(obs_size, action_size, std)
    q1 = T.LinearQ(obs_size, action_size)
    q2 = T.LinearQ(obs_size, action_size)
    options = dict(burnin_action_func=None, initial_temperature=0.5)
    options.update(kwargs)
    agent = make_agent(device, policy=policy, q_funcs=(q1, q2), **options)
    rng = numpy.random.RandomState(11)
    w_pi = rng.uniform(-1, 1, (action_size, obs_size))
    w_q1 = rng.uniform(-1, 1, (1, obs_size + action_size))
    w_q2 = rng.uniform(-1, 1, (1, obs_size + action_size))
    for link, w in ((agent.policy, w_pi), (agent.q_func1, w_q1),
                    (agent.target_q_func1, 0.5 * w_q1),
                    (agent.q_func2, w_q2), (agent.target_q_func2, w_q2)):
        T.set_weight(link, w)
    s = rng.uniform(size=(4, obs_size))
    a = rng.uniform(-1, 1, (4, action_size))
    s2 = rng.uniform(size=(4, obs_size))
    r = numpy.array([1.0, 0.0, -1.0, 0.5])
    term = numpy.array([False, True, False, False])
    exps = T.experiences(zip(s, a, r, s2, term))

    # The policy draws its noise from NumPy's global generator.
    numpy.random.seed(7)
    eps = numpy.random.standard_normal((4, action_size)).astype(
        numpy.float32).astype(numpy.float64)
    pre = s2 @ w_pi.T + std * eps
    next_a = numpy.tanh(pre)
    log_prob = numpy.sum(-0.5 * math.log(2 * math.pi) - math.log(std)
                         - 0.5 * eps ** 2 - numpy.log(1 - next_a ** 2),
                         axis=1)
    x2 = numpy.concatenate([s2, next_a], 1)
    next_q = numpy.minimum(x2 @ (0.5 * w_q1).T, x2 @ w_q2.T)[:, 0]
    target = r + 0.9 * (1 - term) * (next_q - 0.5 * log_prob)
    x = numpy.concatenate([s, a], 1)
    return agent, exps, target, (x @ w_q1.T)[:, 0], (x @ w_q2.T)[:, 0]


@pytest.mark.parametrize('entropy_target', [None, -2.0])
def test_entropy_regularized_target_by_hand(device, entropy_target):
    agent, exps, target, q1, q2 = _hand_setup(
        device, entropy_target=entropy_target)
    assert agent.temperature == pytest.approx(0.5)
    batch = batch_experiences(exps, agent.xp, lambda x: x, 0.9)
    numpy.random.seed(7)
    numpy.testing.assert_allclose(host(agent.compute_target_q(batch)),
                                  target, rtol=1e-4, atol=1e-5)
    # Through a whole update (the critics come first): half the squared
    # error of each critic.
    numpy.random.seed(7)
    agent.update(exps)
    numpy.testing.assert_allclose(agent.q_func1_loss_record[-1],
                                  0.5 * numpy.mean((target - q1) ** 2),
                                  rtol=1e-4)
    numpy.testing.assert_allclose(agent.q_func2_loss_record[-1],
                                  0.5 * numpy.mean((target - q2) ** 2),
                                  rtol=1e-4)


def test_temperature_loss_by_hand(device):
    agent, _, _, _, _ = _hand_setup(device, entropy_target=-2.0,
                                    optimizer=optimizers.SGD, lr=0.1)
    log_prob = numpy.array([1.0, 0.0, 0.5], dtype=numpy.float32)
    loss = agent.temperature_loss(device.send(log_prob))
    expected = -numpy.mean(0.5 * (log_prob - 2.0))
    numpy.testing.assert_allclose(float(host(loss)), expected, rtol=1e-6)
    # d loss / d log(alpha) = -alpha * mean(log_prob + target): the entropy
    # (-0.5 on average) is above the target (-2), so alpha goes down.
    agent.update_temperature(device.send(log_prob))
    expected_log = math.log(0.5) + 0.1 * 0.5 * numpy.mean(log_prob - 2.0)
    assert agent.temperature == pytest.approx(math.exp(expected_log),
                                              rel=1e-5)
    assert agent.temperature < 0.5


def test_fixed_temperature():
    agent, exps, _, _, _ = _hand_setup(initial_temperature=0.25,
                                       entropy_target=None)
    assert agent.temperature_holder is None
    assert agent.temperature_optimizer is None
    agent.update(exps)
    assert agent.temperature == 0.25
    assert dict(agent.get_statistics())['temperature'] == 0.25


def test_temperature_holder():
    holder = TemperatureHolder(math.log(2.0))
    assert holder.log_temperature.shape == ()
    assert float(holder().array) == pytest.approx(2.0)


def test_stochastic_evaluation():
    T.seed(0)
    agent = make_agent(act_deterministically=False)
    obs = T.abc_observations()
    a1, a2 = numpy.stack(agent.batch_act(obs)), numpy.stack(
        agent.batch_act(obs))
    assert not numpy.array_equal(a1, a2)
    assert numpy.abs(a1).max() <= 1
    deterministic = make_agent(policy=agent.policy)
    numpy.testing.assert_array_equal(
        numpy.stack(deterministic.batch_act(obs)),
        numpy.stack(deterministic.batch_act(obs)))


def test_bad_burnin_actions():
    agent = make_agent(burnin_action_func=lambda: numpy.array([0.5, -1.5]))
    with pytest.raises(ValueError, match=r'SoftActorCritic: '
                       r'burnin_action_func returned \[ 0\.5 -1\.5\], '
                       r'outside \[-1.0, 1.0\]'):
        agent.act_and_train(T.abc_observations()[0], 0.0)
    agent = make_agent(burnin_action_func=lambda: [[0.0, 0.0]])
    with pytest.raises(ValueError, match=r'SoftActorCritic: '
                       r'burnin_action_func returned an action of shape '
                       r'\(1, 2\), expected \(2,\)'):
        agent.act_and_train(T.abc_observations()[0], 0.0)


def test_bad_observations():
    agent = make_agent()
    agent.act(T.abc_observations()[1])
    with pytest.raises(ValueError, match=r'SoftActorCritic\.batch_act: '
                       r'observation 0 has shape \(3,\), expected \(4,\)'):
        agent.act(numpy.zeros(3, numpy.float32))
    fresh = make_agent()
    with pytest.raises(ValueError, match=r'SoftActorCritic\.'
                       r'batch_act_and_train: the policy failed on a batch '
                       r'of observations of shape \(1, 6\)'):
        fresh.act_and_train(numpy.zeros(6, numpy.float32), 0.0)


def test_bad_constructor_arguments():
    policy, q1, q2 = (T.squashed_gaussian_policy(), T.sa_q_function(),
                      T.sa_q_function())
    opts = [optimizers.Adam().setup(link) for link in (policy, q1, q2)]
    buf = replay_buffers.ReplayBuffer(100)
    with pytest.raises(ValueError, match='SoftActorCritic: policy_optimizer '
                       'must be set up on its link'):
        SoftActorCritic(policy, q1, q2, opts[1], opts[1], opts[2], buf, 0.9)
    with pytest.raises(ValueError, match='SoftActorCritic: '
                       'initial_temperature must be positive, got 0'):
        SoftActorCritic(policy, q1, q2, *opts, buf, 0.9,
                        initial_temperature=0)
    with pytest.raises(TypeError, match='SoftActorCritic: '
                       'temperature_optimizer must be a chainer_core '
                       'Optimizer'):
        SoftActorCritic(policy, q1, q2, *opts, buf, 0.9, entropy_target=-1,
                        temperature_optimizer='adam')
    with pytest.raises(TypeError, match='SoftActorCritic: minibatch_size '
                       'must be an int'):
        SoftActorCritic(policy, q1, q2, *opts, buf, 0.9, minibatch_size=2.5)


def test_load_refuses_another_agent(tmp_path):
    agent = make_agent()
    agent.save(str(tmp_path / 'sac'))
    other = make_agent(entropy_target=None)
    # Same class, different configuration: the temperature has no file to
    # go to, the networks load.
    other.load(str(tmp_path / 'sac'))
    from chainer_rl.agents.ddpg import DDPG, DDPGModel
    from chainer_rl import explorers
    model = DDPGModel(T.deterministic_policy(), T.sa_q_function())
    ddpg = DDPG(model, optimizers.Adam().setup(model['policy']),
                optimizers.Adam().setup(model['q_function']),
                replay_buffers.ReplayBuffer(), 0.9,
                explorers.AdditiveGaussian(0.1))
    with pytest.raises(ValueError, match=r'DDPG\.load: .* was saved by '
                       r'agent class chainer_rl\.agents\.soft_actor_critic'
                       r'\.SoftActorCritic but is being loaded into '
                       r'chainer_rl\.agents\.ddpg\.DDPG'):
        ddpg.load(str(tmp_path / 'sac'))
