import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import optimizers

from chainer_rl import agents
from chainer_rl import distribution
from chainer_rl import envs
from chainer_rl import explorers
from chainer_rl import q_functions
from chainer_rl import replay_buffers
from chainer_rl.agents.ddpg import DDPG
from chainer_rl.agents.ddpg import DDPGModel
from chainer_rl.replay_buffer import batch_experiences

import continuous_agents_testing as T


def make_agent(device=None, policy=None, q_func=None, lr=3e-3, **kwargs):
    policy = policy if policy is not None else T.deterministic_policy()
    q_func = q_func if q_func is not None else T.sa_q_function()
    model = DDPGModel(policy, q_func)
    if device is not None:
        model.to_device(device)
    options = dict(replay_start_size=100, minibatch_size=32,
                   target_update_method='soft', target_update_interval=1,
                   soft_update_tau=5e-2,
                   burnin_action_func=T.uniform_burnin())
    options.update(kwargs)
    replay_buffer = options.pop('replay_buffer', None)
    if replay_buffer is None:
        replay_buffer = replay_buffers.ReplayBuffer(10 ** 5)
    return DDPG(model, optimizers.Adam(lr).setup(model['policy']),
                optimizers.Adam(lr).setup(model['q_function']),
                replay_buffer, 0.9, explorers.AdditiveGaussian(0.3, -1, 1),
                **options)


def test_exported():
    assert agents.DDPG is DDPG
    assert agents.DDPGModel is DDPGModel


def test_learns_abc_and_save_load_reproduces_actions(device, tmp_path):
    T.seed(0)
    agent = make_agent(device)
    assert str(agent.device) == str(device)
    T.train_single(agent, T.make_env(), 1000)
    T.assert_solves_abc(agent)
    stats = dict(agent.get_statistics())
    assert set(stats) == {'average_q', 'average_actor_loss',
                          'average_critic_loss', 'actor_n_updates',
                          'critic_n_updates'}
    assert stats['actor_n_updates'] == stats['critic_n_updates'] > 0
    assert numpy.isfinite(stats['average_q'])

    fresh = T.assert_load_reproduces(agent, lambda: make_agent(device),
                                     str(tmp_path / 'agent'))
    assert fresh.actor_optimizer.t == agent.actor_optimizer.t
    T.assert_solves_abc(fresh)


def test_learns_abc_batch_training():
    T.seed(0)
    agent = make_agent(update_interval=2)
    T.train_on_two_envs(agent)
    T.assert_solves_abc(agent)


def test_critic_loss_by_hand():
    obs_size, action_size = T.sizes()
    policy = T.LinearPolicy(obs_size, action_size)
    q_func = T.LinearQ(obs_size, action_size)
    agent = make_agent(policy=policy, q_func=q_func, burnin_action_func=None)
    rng = numpy.random.RandomState(3)
    w_pi = rng.uniform(-1, 1, (action_size, obs_size))
    w_q = rng.uniform(-1, 1, (1, obs_size + action_size))
    for link, w in ((agent.policy, w_pi), (agent.target_policy, w_pi),
                    (agent.q_function, w_q), (agent.target_q_function,
                                              0.5 * w_q)):
        T.set_weight(link, w)
    s = rng.uniform(size=(3, obs_size))
    a = rng.uniform(-1, 1, (3, action_size))
    s2 = rng.uniform(size=(3, obs_size))
    r = numpy.array([1.0, -0.5, 0.25])
    term = numpy.array([False, True, False])
    batch = batch_experiences(T.experiences(zip(s, a, r, s2, term)),
                              numpy, lambda x: x, 0.9)
    loss = agent.compute_critic_loss(batch)

    next_a = s2 @ w_pi.T
    next_q = numpy.concatenate([s2, next_a], 1) @ (0.5 * w_q).T
    target = r + 0.9 * (1 - term) * next_q[:, 0]
    predict = (numpy.concatenate([s, a], 1) @ w_q.T)[:, 0]
    numpy.testing.assert_allclose(float(loss.array),
                                  numpy.mean((target - predict) ** 2),
                                  rtol=1e-5)
    actor_loss = agent.compute_actor_loss(batch)
    on_policy = numpy.concatenate([s, s @ w_pi.T], 1) @ w_q.T
    numpy.testing.assert_allclose(float(actor_loss.array),
                                  -numpy.mean(on_policy), rtol=1e-5)


def _host_params(link):
    return {name: chainer.backend.CpuDevice().send(p.array).copy()
            for name, p in link.namedparams()}


def test_hard_target_update_interval():
    T.seed(0)
    # No updates: the model is moved by hand so copies are visible.
    agent = make_agent(target_update_method='hard', target_update_interval=5,
                       replay_start_size=10 ** 6)
    env = T.make_env()
    obs, _ = env.reset(seed=0)
    previous = _host_params(agent.target_model)
    for _ in range(12):
        for p in agent.model.params():
            p.array += p.device.send(numpy.ones(p.shape, p.dtype))
        t_before = agent.t
        action = agent.act_and_train(obs, 0.0)
        obs, _, terminated, _, _ = env.step(action)
        if terminated:
            agent.stop_episode_and_train(obs, 0.0, True)
            obs, _ = env.reset()
        target = _host_params(agent.target_model)
        synced = agent.t // 5 > t_before // 5
        expected = _host_params(agent.model) if synced else previous
        for name in target:
            numpy.testing.assert_array_equal(target[name], expected[name],
                                             err_msg=name)
        previous = target


def test_soft_target_update(device):
    T.seed(0)
    agent = make_agent(device, soft_update_tau=0.25)
    target_params = dict(agent.target_model.namedparams())
    before = {n: chainer.backend.CpuDevice().send(p.array).copy()
              for n, p in target_params.items()}
    for p in agent.model.params():
        chainer.backend.copyto(p.array, p.device.send(
            numpy.ones(p.shape, dtype=p.dtype)))
    agent.sync_target_network()
    for name, p in target_params.items():
        numpy.testing.assert_allclose(
            chainer.backend.CpuDevice().send(p.array),
            0.75 * before[name] + 0.25, rtol=1e-6, err_msg=name)


class LSTMPolicy(chainer.Chain):
    def __init__(self, obs_size, action_size, hidden=16):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(obs_size, hidden)
            self.lstm = L.LSTM(hidden, hidden)
            self.l2 = L.Linear(hidden, action_size)

    def forward(self, x):
        h = self.lstm(F.relu(self.l1(x)))
        return distribution.ContinuousDeterministicDistribution(
            F.tanh(self.l2(h)))


def test_recurrent_episodic_update():
    T.seed(0)
    obs_size, action_size = T.sizes()
    policy = LSTMPolicy(obs_size, action_size)
    q_func = q_functions.FCLSTMSAQFunction(obs_size, action_size, 16, 1)
    agent = make_agent(policy=policy, q_func=q_func, episodic_update=True,
                       replay_buffer=replay_buffers.EpisodicReplayBuffer(
                           10 ** 4),
                       minibatch_size=4, replay_start_size=10,
                       episodic_update_len=4)
    assert agent.recurrent
    T.train_on_two_envs(agent, steps=40)
    assert agent.actor_optimizer.t > 0
    stats = dict(agent.get_statistics())
    assert numpy.isfinite(stats['average_critic_loss'])
    # Evaluation keeps its own per-env states; the training states are
    # left as they were.
    train_state = agent._act_states['train']
    actions = agent.batch_act(T.abc_observations()[:2])
    assert len(actions) == 2
    assert agent._act_states['train'] is train_state
    agent.batch_observe(T.abc_observations()[:2], [0, 0], [True, False],
                        [False, False])


@pytest.mark.slow
def test_recurrent_learns_partially_observable_abc():
    # Shifted and unshifted episodes alternate: state 0 of a shifted one
    # looks like state 1 of an unshifted one, so only a policy remembering
    # the first observation succeeds in both.
    def make_env():
        return envs.ABC(size=T.ABC_SIZE, discrete=False, deterministic=True,
                        partially_observable=True)
    T.seed(0)
    obs_size, action_size = T.sizes()
    agent = make_agent(
        policy=LSTMPolicy(obs_size, action_size, hidden=32),
        q_func=q_functions.FCLSTMSAQFunction(obs_size, action_size, 32, 1),
        episodic_update=True, minibatch_size=16, update_interval=2,
        replay_buffer=replay_buffers.EpisodicReplayBuffer(10 ** 5))
    T.train_single(agent, make_env(), 3000)
    assert T.greedy_returns(agent, make_env(), 6) == [1.0] * 6


def test_recurrent_needs_episodic_update():
    obs_size, action_size = T.sizes()
    with pytest.raises(ValueError, match='DDPG: a recurrent model needs '
                       'episodic_update=True'):
        make_agent(policy=LSTMPolicy(obs_size, action_size))


def test_plain_models_are_not_recurrent():
    assert not make_agent().recurrent


def test_gpu_argument():
    agent = make_agent(gpu=-1)
    assert str(agent.device) == '@numpy'
    with pytest.raises(TypeError, match='DDPG: gpu must be None or an int'):
        make_agent(gpu='0')


def test_bad_observation_shape():
    agent = make_agent()
    obs = T.abc_observations()[0]
    agent.act(obs)
    with pytest.raises(ValueError, match=r'DDPG\.batch_act: observation 0 '
                       r'has shape \(5,\), expected \(4,\)'):
        agent.act(numpy.zeros(5, dtype=numpy.float32))
    with pytest.raises(ValueError, match=r'DDPG\.batch_act_and_train: '
                       r'observation 1 has shape \(3,\), expected \(4,\)'):
        agent.batch_act_and_train([obs, numpy.zeros(3, numpy.float32)])


def test_bad_first_observation():
    agent = make_agent(burnin_action_func=None)
    with pytest.raises(ValueError, match=r'DDPG\.batch_act: the policy '
                       r'failed on a batch of observations of shape '
                       r'\(1, 7\)'):
        agent.act(numpy.zeros(7, dtype=numpy.float32))


def test_bad_burnin_action():
    agent = make_agent(burnin_action_func=lambda: numpy.zeros(3))
    with pytest.raises(ValueError, match=r'DDPG: burnin_action_func '
                       r'returned an action of shape \(3,\), expected '
                       r'\(2,\)'):
        agent.act_and_train(T.abc_observations()[0], 0.0)


def test_wrong_batch_sizes():
    agent = make_agent()
    obs = T.abc_observations()
    agent.batch_act_and_train(obs[:2])
    with pytest.raises(ValueError, match=r'DDPG\.batch_observe_and_train: '
                       r'batch_obs has 3 entries, expected 2'):
        agent.batch_observe_and_train(obs[:3], [0, 0, 0], [False] * 3,
                                      [False] * 3)
    with pytest.raises(ValueError, match='batch_reward has 1 entries'):
        agent.batch_observe_and_train(obs[:2], [0], [False] * 2,
                                      [False] * 2)
    with pytest.raises(ValueError, match='DDPG.batch_act: batch_obs is '
                       'empty'):
        agent.batch_act([])
    fresh = make_agent()
    with pytest.raises(RuntimeError, match='DDPG.batch_observe_and_train: '
                       'no training action was taken'):
        fresh.batch_observe_and_train(obs[:1], [0], [False], [False])


def test_bad_constructor_arguments():
    policy, q_func = T.deterministic_policy(), T.sa_q_function()
    model = DDPGModel(policy, q_func)
    opt_a = optimizers.Adam().setup(policy)
    opt_c = optimizers.Adam().setup(q_func)
    buf = replay_buffers.ReplayBuffer(100)
    explorer = explorers.AdditiveGaussian(0.1)
    with pytest.raises(ValueError, match='DDPG: actor_optimizer must be set '
                       'up on its link'):
        DDPG(model, opt_c, opt_c, buf, 0.9, explorer)
    with pytest.raises(TypeError, match='DDPG: model must have the child '
                       'links policy and q_function'):
        DDPG(policy, opt_a, opt_c, buf, 0.9, explorer)
    with pytest.raises(ValueError, match="DDPG: target_update_method must "
                       "be 'hard' or 'soft', got 'polyak'"):
        DDPG(model, opt_a, opt_c, buf, 0.9, explorer,
             target_update_method='polyak')
    with pytest.raises(TypeError, match='DDPG: episodic_update=True needs '
                       'an episodic replay buffer'):
        DDPG(model, opt_a, opt_c, buf, 0.9, explorer, episodic_update=True)
    with pytest.raises(ValueError, match=r'DDPG: gamma must be in \[0.0, '
                       r'1.0\], got 1.5'):
        DDPG(model, opt_a, opt_c, buf, 1.5, explorer)


def test_models_on_two_devices():
    devices = chainer.backend.available_devices()
    if len(devices) < 2:
        pytest.skip('one device installed')
    policy, q_func = T.deterministic_policy(), T.sa_q_function()
    policy.to_device(devices[0])
    q_func.to_device(devices[1])
    model = DDPGModel(policy, q_func)
    with pytest.raises(ValueError, match='DDPG: all models must be on one '
                       'device'):
        DDPG(model, optimizers.Adam().setup(policy),
             optimizers.Adam().setup(q_func), replay_buffers.ReplayBuffer(),
             0.9, explorers.AdditiveGaussian(0.1))

