import numpy
import pytest

import chainer_core as chainer
from chainer_core import optimizers

from chainer_rl import agents
from chainer_rl import explorers
from chainer_rl import replay_buffers
from chainer_rl.agents.td3 import default_target_policy_smoothing_func
from chainer_rl.agents.td3 import TD3
from chainer_rl.replay_buffer import batch_experiences

import continuous_agents_testing as T


def make_agent(device=None, policy=None, q_funcs=None, lr=3e-3,
               optimizer=optimizers.Adam, **kwargs):
    policy = policy if policy is not None else T.deterministic_policy()
    q1, q2 = T.twin_critics(policy, q_funcs, device)
    options = dict(replay_start_size=100, minibatch_size=32,
                   soft_update_tau=5e-2,
                   burnin_action_func=T.uniform_burnin())
    options.update(kwargs)
    return TD3(policy, q1, q2, optimizer(lr).setup(policy),
               optimizer(lr).setup(q1), optimizer(lr).setup(q2),
               replay_buffers.ReplayBuffer(10 ** 5), 0.9,
               explorers.AdditiveGaussian(0.3, -1, 1), **options)


def test_exported():
    assert agents.TD3 is TD3


def test_learns_abc_and_save_load_reproduces_actions(device, tmp_path):
    T.seed(0)
    agent = make_agent(device)
    T.train_single(agent, T.make_env(), 1000)
    T.assert_solves_abc(agent)
    stats = dict(agent.get_statistics())
    assert set(stats) == {'average_q1', 'average_q2', 'average_q_func1_loss',
                          'average_q_func2_loss', 'average_policy_loss',
                          'policy_n_updates', 'q_func_n_updates'}
    # The policy is updated once every policy_update_delay=2 critic steps.
    assert stats['q_func_n_updates'] // 2 == stats['policy_n_updates'] > 0
    assert all(numpy.isfinite(stats[k]) for k in (
        'average_q1', 'average_q2', 'average_policy_loss'))

    fresh = T.assert_load_reproduces(agent, lambda: make_agent(device),
                                     str(tmp_path / 'agent'))
    assert fresh.policy_n_updates == agent.policy_n_updates
    T.assert_solves_abc(fresh)


def test_learns_abc_pfrl_batch_training():
    T.seed(0)
    agent = make_agent(update_interval=2)
    T.train_on_two_envs(agent, T.train_batch_pfrl)
    assert agent.training is False
    T.assert_solves_abc(agent)


def _hand_setup(device=None, **kwargs):
    obs_size, action_size = T.sizes()
    policy = T.LinearPolicy(obs_size, action_size)
    q1 = T.LinearQ(obs_size, action_size)
    q2 = T.LinearQ(obs_size, action_size)
    agent = make_agent(device, policy=policy, q_funcs=(q1, q2),
                       burnin_action_func=None,
                       target_policy_smoothing_func=lambda a: a, **kwargs)
    rng = numpy.random.RandomState(5)
    w_pi = rng.uniform(-0.5, 0.5, (action_size, obs_size))
    w_q1 = rng.uniform(-1, 1, (1, obs_size + action_size))
    w_q2 = rng.uniform(-1, 1, (1, obs_size + action_size))
    for link, w in ((agent.policy, w_pi), (agent.target_policy, 2 * w_pi),
                    (agent.q_func1, w_q1), (agent.target_q_func1, w_q1),
                    (agent.q_func2, w_q2), (agent.target_q_func2, w_q2)):
        T.set_weight(link, w)
    s = rng.uniform(size=(4, obs_size))
    a = rng.uniform(-1, 1, (4, action_size))
    s2 = rng.uniform(size=(4, obs_size))
    r = numpy.array([1.0, 0.0, -1.0, 0.5])
    term = numpy.array([False, False, True, False])
    exps = T.experiences(zip(s, a, r, s2, term))
    next_a = s2 @ (2 * w_pi).T
    x2 = numpy.concatenate([s2, next_a], 1)
    next_q = numpy.minimum(x2 @ w_q1.T, x2 @ w_q2.T)[:, 0]
    target = r + 0.9 * (1 - term) * next_q
    x = numpy.concatenate([s, a], 1)
    return agent, exps, target, (x @ w_q1.T)[:, 0], (x @ w_q2.T)[:, 0]


def test_clipped_double_q_target_by_hand(device):
    agent, exps, target, q1, q2 = _hand_setup(device)
    batch = batch_experiences(exps, agent.xp, lambda x: x, 0.9)
    numpy.testing.assert_allclose(
        chainer.backend.CpuDevice().send(agent.compute_target_q(batch).array),
        target, rtol=1e-5, atol=1e-6)
    # Through a whole update: the recorded losses are those of the target.
    agent.update(exps)
    numpy.testing.assert_allclose(agent.q_func1_loss_record[-1],
                                  numpy.mean((target - q1) ** 2), rtol=1e-5)
    numpy.testing.assert_allclose(agent.q_func2_loss_record[-1],
                                  numpy.mean((target - q2) ** 2), rtol=1e-5)


def test_policy_update_delay_and_target_steps():
    agent, exps, _, _, _ = _hand_setup()
    target_w = agent.target_policy.l.W.array.copy()
    policy_w = agent.policy.l.W.array.copy()
    agent.update(exps)
    assert (agent.q_func_n_updates, agent.policy_n_updates) == (1, 0)
    numpy.testing.assert_array_equal(agent.policy.l.W.array, policy_w)
    numpy.testing.assert_array_equal(agent.target_policy.l.W.array, target_w)
    agent.update(exps)
    assert (agent.q_func_n_updates, agent.policy_n_updates) == (2, 1)
    new_policy_w = agent.policy.l.W.array
    assert not numpy.array_equal(new_policy_w, policy_w)
    numpy.testing.assert_allclose(
        agent.target_policy.l.W.array,
        (1 - 5e-2) * target_w + 5e-2 * new_policy_w, rtol=1e-6)


def test_default_smoothing(device):
    T.seed(0)
    action = device.send(numpy.array([[0.95, -0.95, 0.0]] * 2000,
                                     dtype=numpy.float32))
    out = default_target_policy_smoothing_func(action)
    assert str(chainer.backend.get_device_from_array(out)) == str(device)
    out = chainer.backend.CpuDevice().send(out)
    assert out.dtype == numpy.float32 and out.shape == (2000, 3)
    assert out.min() >= -1 and out.max() <= 1
    noise = out[:, 2]
    assert numpy.abs(noise).max() <= 0.5
    assert 0.15 < noise.std() < 0.22
    assert numpy.abs(noise).max() > 0.45


def test_max_grad_norm():
    # With plain SGD at lr=1 a step is minus the clipped gradient.
    agent, exps, _, _, _ = _hand_setup(max_grad_norm=1e-3, lr=1.0,
                                       optimizer=optimizers.SGD)
    w = agent.q_func1.l.W.array.copy()
    agent.update(exps)
    step = agent.q_func1.l.W.array - w
    numpy.testing.assert_allclose(numpy.linalg.norm(step), 1e-3, rtol=1e-4)


def test_bad_burnin_actions():
    agent = make_agent(burnin_action_func=lambda: numpy.zeros(1))
    with pytest.raises(ValueError, match=r'TD3: burnin_action_func returned '
                       r'an action of shape \(1,\), expected \(2,\)'):
        agent.act_and_train(T.abc_observations()[0], 0.0)
    agent = make_agent(burnin_action_func=lambda: numpy.array([2.0, 0.0]))
    with pytest.raises(ValueError, match=r'TD3: burnin_action_func returned '
                       r'\[2\. 0\.\], outside \[-1.0, 1.0\]'):
        agent.act_and_train(T.abc_observations()[0], 0.0)
    # With its own smoothing the agent does not assume [-1, 1].
    agent = make_agent(burnin_action_func=lambda: numpy.array([2.0, 0.0]),
                       target_policy_smoothing_func=lambda a: a)
    action = agent.act_and_train(T.abc_observations()[0], 0.0)
    assert action.dtype == numpy.float32


def test_bad_observations_and_batches():
    agent = make_agent()
    obs = T.abc_observations()
    agent.batch_act(obs[:2])
    with pytest.raises(ValueError, match=r'TD3\.batch_act: observation 0 '
                       r'has shape \(2, 4\), expected \(4,\)'):
        agent.batch_act([numpy.stack(obs[:2])])
    agent.batch_act_and_train(obs[:2])
    with pytest.raises(ValueError, match=r'TD3\.batch_observe_and_train: '
                       r'batch_obs has 1 entries, expected 2'):
        agent.batch_observe_and_train(obs[:1], [0], [False], [False])
    with pytest.raises(TypeError, match='TD3.batch_act: batch_obs must be a '
                       'sequence'):
        agent.batch_act(3)


def test_bad_constructor_arguments():
    policy, q1, q2 = (T.deterministic_policy(), T.sa_q_function(),
                      T.sa_q_function())
    opts = [optimizers.Adam().setup(link) for link in (policy, q1, q2)]
    buf = replay_buffers.ReplayBuffer(100)
    explorer = explorers.AdditiveGaussian(0.1)
    with pytest.raises(ValueError, match='TD3: q_func2_optimizer must be '
                       'set up on its link'):
        TD3(policy, q1, q2, opts[0], opts[1], opts[1], buf, 0.9, explorer)
    with pytest.raises(ValueError, match='TD3: policy_update_delay must be '
                       'at least 1, got 0'):
        TD3(policy, q1, q2, *opts, buf, 0.9, explorer,
            policy_update_delay=0)
    with pytest.raises(TypeError, match='TD3: target_policy_smoothing_func '
                       'must be callable'):
        TD3(policy, q1, q2, *opts, buf, 0.9, explorer,
            target_policy_smoothing_func=0.2)
    with pytest.raises(ValueError, match='TD3: max_grad_norm must be '
                       'positive'):
        TD3(policy, q1, q2, *opts, buf, 0.9, explorer, max_grad_norm=0)


def test_load_refuses_another_agent(tmp_path):
    from chainer_rl.agents.soft_actor_critic import SoftActorCritic
    agent = make_agent()
    agent.save(str(tmp_path / 'td3'))
    policy, q1, q2 = (T.squashed_gaussian_policy(), T.sa_q_function(),
                      T.sa_q_function())
    sac = SoftActorCritic(policy, q1, q2, optimizers.Adam().setup(policy),
                          optimizers.Adam().setup(q1),
                          optimizers.Adam().setup(q2),
                          replay_buffers.ReplayBuffer(), 0.9)
    with pytest.raises(ValueError, match=r'SoftActorCritic\.load: .* was '
                       r'saved by agent class chainer_rl\.agents\.td3\.TD3'):
        sac.load(str(tmp_path / 'td3'))


def test_load_refuses_a_ddpg_folder(tmp_path):
    from chainer_rl.agents.ddpg import DDPG, DDPGModel
    model = DDPGModel(T.deterministic_policy(), T.sa_q_function())
    ddpg = DDPG(model, optimizers.Adam().setup(model['policy']),
                optimizers.Adam().setup(model['q_function']),
                replay_buffers.ReplayBuffer(), 0.9,
                explorers.AdditiveGaussian(0.1))
    ddpg.save(str(tmp_path / 'ddpg'))
    with pytest.raises(ValueError, match=r'TD3\.load: .* was saved by agent '
                       r'class chainer_rl\.agents\.ddpg\.DDPG'):
        make_agent().load(str(tmp_path / 'ddpg'))
