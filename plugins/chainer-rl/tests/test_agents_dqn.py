import os

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L

from chainer_rl import agents
from chainer_rl import envs
from chainer_rl import explorers
from chainer_rl import links
from chainer_rl import replay_buffers
from chainer_rl.action_value import DiscreteActionValue

import value_agents_testing as vt


def make_dqn(device='@numpy', replay_buffer=None, cls=agents.DQN,
             explorer=None, lr=1e-2, q=None, **kwargs):
    env = vt.make_env()
    if q is None:
        q = vt.TinyQ(env.observation_space.shape[0], vt.ABC_SIZE)
    q.to_device(device)
    opt = chainer.optimizers.Adam(lr)
    opt.setup(q)
    if replay_buffer is None:
        replay_buffer = replay_buffers.ReplayBuffer(10 ** 5)
    if explorer is None:
        explorer = vt.explorer()
    params = dict(replay_start_size=100, target_update_interval=100,
                  minibatch_size=16)
    params.update(kwargs)
    return cls(q, opt, replay_buffer, 0.9, explorer, **params)


def test_dqn_learns_abc(device):
    vt.seed(0)
    agent = make_dqn(device)
    vt.train_single(agent, vt.make_env(), 1500)
    vt.assert_solves_abc(agent)
    stats = dict(agent.get_statistics())
    assert list(stats) == ['average_q', 'average_loss', 'n_updates']
    assert stats['n_updates'] > 1000
    assert stats['average_q'] > 0


def test_dqn_nstep_prioritized_vector_env_learns_abc():
    vt.seed(1)
    rbuf = replay_buffers.PrioritizedReplayBuffer(10 ** 5, num_steps=2,
                                                  betasteps=1000)
    agent = make_dqn(replay_buffer=rbuf)
    vec_env = envs.SerialVectorEnv([vt.make_env(time_limit=5)
                                    for _ in range(2)])
    vt.train_batch(agent, vec_env, 800)
    vt.assert_solves_abc(agent)
    # The batch evaluation entry points give the same greedy actions.
    obs = vt.abc_observations(vt.make_env())[:vt.ABC_SIZE]
    assert list(agent.batch_act(obs)) == list(range(vt.ABC_SIZE))


def test_dqn_soft_update_squared_loss_sum_boltzmann_learns_abc():
    vt.seed(2)
    agent = make_dqn(target_update_method='soft', soft_update_tau=0.1,
                     target_update_interval=1, clip_delta=False,
                     batch_accumulator='sum', lr=3e-3,
                     explorer=explorers.Boltzmann(T=0.5))
    vt.train_single(agent, vt.make_env(), 1500)
    vt.assert_solves_abc(agent)


def test_dqn_pfrl_batch_api_learns_abc():
    vt.seed(3)
    agent = make_dqn()
    env = vt.make_env()
    with agent.train_mode():
        obs, _ = env.reset(seed=0)
        for _ in range(1500):
            obs, r, term, trunc, _ = env.step(agent.act(obs))
            agent.observe(obs, r, term, trunc)
            if term or trunc:
                obs, _ = env.reset()
    assert not agent.training
    vt.assert_solves_abc(agent)


def stateless_lstm_q(n_in, n_actions, hidden=20):
    return links.StatelessRecurrentSequential(
        L.Linear(n_in, hidden), F.relu, L.NStepLSTM(1, hidden, hidden, 0),
        L.Linear(hidden, n_actions), DiscreteActionValue)


def _learn_partially_observable(q, steps, n_envs=1):
    agent = make_dqn(
        q=q, replay_buffer=replay_buffers.EpisodicReplayBuffer(10 ** 5),
        recurrent=True, minibatch_size=8, replay_start_size=30,
        episodic_update_len=None, target_update_interval=50)
    env_args = dict(partially_observable=True)
    if n_envs == 1:
        vt.train_single(agent, vt.make_env(**env_args), steps)
    else:
        vt.train_batch(agent, envs.SerialVectorEnv(
            [vt.make_env(**env_args) for _ in range(n_envs)]), steps)
    return agent


def test_dqn_recurrent_stateless_learns_partially_observable_abc():
    vt.seed(4)
    env = vt.make_env()
    agent = _learn_partially_observable(
        stateless_lstm_q(env.observation_space.shape[0], vt.ABC_SIZE), 600)
    vt.assert_solves_abc(agent, partially_observable=True)


def test_dqn_recurrent_stateful_vector_env_learns_partially_observable_abc():
    vt.seed(5)
    env = vt.make_env()
    agent = _learn_partially_observable(
        vt.LSTMQ(env.observation_space.shape[0], vt.ABC_SIZE), 400, n_envs=2)
    vt.assert_solves_abc(agent, partially_observable=True)


def test_dqn_recurrent_needs_episodic_buffer_and_recurrent_model():
    env = vt.make_env()
    with pytest.raises(ValueError, match='DQN: recurrent=True needs an '
                       'episodic replay buffer'):
        make_dqn(q=vt.LSTMQ(env.n_dim_obs, 3), recurrent=True)
    with pytest.raises(ValueError, match='DQN: recurrent=True needs a '
                       'recurrent q_function'):
        make_dqn(replay_buffer=replay_buffers.EpisodicReplayBuffer(),
                 recurrent=True)
    with pytest.raises(ValueError, match='pass recurrent=True'):
        make_dqn(q=vt.LSTMQ(env.n_dim_obs, 3))


def test_dqn_save_load_reproduces_greedy_actions(tmp_path):
    vt.seed(6)
    agent = make_dqn()
    vt.train_single(agent, vt.make_env(), 300)
    obs = vt.abc_observations(vt.make_env())
    before = vt.greedy_actions(agent, obs)
    agent.save(str(tmp_path / 'agent'))
    assert os.path.exists(str(tmp_path / 'agent' / 'model.npz'))
    vt.seed(7)
    fresh = make_dqn()
    fresh.load(str(tmp_path / 'agent'))
    assert vt.greedy_actions(fresh, obs) == before
    q_before = agent.model(numpy.stack(obs)).q_values.array
    q_after = fresh.model(numpy.stack(obs)).q_values.array
    numpy.testing.assert_array_equal(q_before, q_after)


def test_dqn_load_refuses_folder_of_another_agent_class(tmp_path):
    class OtherAgent(agents.DQN):
        pass

    make_dqn(cls=OtherAgent).save(str(tmp_path / 'other'))
    with pytest.raises(ValueError, match='saved by agent class .*OtherAgent'
                       ' but is being loaded into .*DQN'):
        make_dqn().load(str(tmp_path / 'other'))


def _hand_agent(**kwargs):
    q = vt.LinearQ(2, 2)
    q.l.W.array[...] = numpy.array([[1, 2], [3, -1]], dtype=numpy.float32)
    opt = chainer.optimizers.SGD(lr=1.0)
    opt.setup(q)
    params = dict(replay_start_size=1, average_q_decay=0.0,
                  average_loss_decay=0.0)
    params.update(kwargs)
    return agents.DQN(q, opt, replay_buffers.ReplayBuffer(100), 0.9,
                      explorers.Greedy(), **params)


S1 = numpy.array([1, 0], dtype=numpy.float32)
S2 = numpy.array([0, 1], dtype=numpy.float32)


def _tr(s, a, r, s2, terminal, **kw):
    d = dict(state=s, action=a, reward=r, next_state=s2, next_action=None,
             is_state_terminal=terminal)
    d.update(kw)
    return d


def test_dqn_targets_loss_and_update_by_hand():
    # Q(s1) = [1, 3], Q(s2) = [2, -1].
    agent = _hand_agent()
    experiences = [[_tr(S1, 0, 0.5, S2, False)], [_tr(S2, 1, 1.0, S1, True)]]
    errors = []
    agent.update(experiences, errors_out=errors)
    # targets: 0.5 + 0.9 * max(2, -1) = 2.3, and 1.0 (terminal)
    numpy.testing.assert_allclose(errors, [1.3, 2.0], rtol=1e-6)
    # Huber: 1.3 - 0.5 and 2 - 0.5, averaged
    numpy.testing.assert_allclose(agent.average_loss, 1.15, rtol=1e-6)
    assert agent.average_q == pytest.approx(0.0)  # mean of y = (1 - 1) / 2
    # Both gradients clip to -1 / 2: W[0] += 0.5 s1, W[1] += 0.5 s2.
    numpy.testing.assert_allclose(agent.model.l.W.array,
                                  [[1.5, 2], [3, -0.5]])
    assert agent.optimizer.t == 1


def test_dqn_squared_sum_loss_and_nstep_target_by_hand():
    agent = _hand_agent(clip_delta=False, batch_accumulator='sum')
    # One 2-step item: reward 0.5 + 0.9 * 1.0, bootstrap 0.81 * max Q(s1)
    experiences = [[_tr(S1, 0, 0.5, S2, False), _tr(S2, 1, 1.0, S1, False)],
                   [_tr(S2, 1, 1.0, S1, True)]]
    errors = []
    agent.update(experiences, errors_out=errors)
    numpy.testing.assert_allclose(errors, [2.83, 2.0], rtol=1e-6)
    numpy.testing.assert_allclose(agent.average_loss,
                                  0.5 * 2.83 ** 2 + 0.5 * 4.0, rtol=1e-6)


class RecordingBuffer(replay_buffers.ReplayBuffer):
    def update_errors(self, errors):
        self.errors = list(errors)


def test_dqn_importance_weights_and_priorities_by_hand():
    agent = _hand_agent()
    agent.replay_buffer = RecordingBuffer(100)
    experiences = [[_tr(S1, 0, 0.5, S2, False, weight=1.0)],
                   [_tr(S2, 1, 1.0, S1, True, weight=0.5)]]
    agent.update(experiences)
    numpy.testing.assert_allclose(agent.replay_buffer.errors, [1.3, 2.0],
                                  rtol=1e-6)
    numpy.testing.assert_allclose(agent.average_loss,
                                  (0.8 * 1.0 + 1.5 * 0.5) / 2, rtol=1e-6)


def test_dqn_target_network_hard_and_soft_sync():
    agent = _hand_agent(target_update_interval=2)
    agent.model.l.W.array[...] = 0
    agent.sync_target_network()
    numpy.testing.assert_array_equal(agent.target_model.l.W.array, 0)
    soft = _hand_agent(target_update_method='soft', soft_update_tau=0.25)
    soft.model.l.W.array[...] = 0
    soft.sync_target_network()
    numpy.testing.assert_allclose(soft.target_model.l.W.array,
                                  [[0.75, 1.5], [2.25, -0.75]])


def test_dqn_stores_transitions_per_env_and_honours_resets():
    agent = _hand_agent(replay_start_size=100)
    agent.batch_act_and_train([S1, S2])
    agent.batch_observe_and_train([S2, S1], [0.0, 1.0], [False, True],
                                  [True, False])
    items = list(agent.replay_buffer.memory)
    assert len(items) == 2
    by_state = {int(item[0]['state'][1]): item[0] for item in items}
    assert by_state[0]['is_state_terminal'] is False
    assert by_state[1]['is_state_terminal'] is True
    assert agent.batch_last_obs == [None, None]
    assert agent.t == 2


def test_dqn_rejects_bad_observations_and_batches():
    agent = make_dqn()
    good = numpy.zeros(5, dtype=numpy.float32)
    with pytest.raises(ValueError, match=r'DQN\.batch_act_and_train: the '
                       r'q_function could not evaluate a batch of 1 '
                       r'observation\(s\) of shape \(4,\)'):
        agent.act_and_train(numpy.zeros(4, dtype=numpy.float32), 0.0)
    agent.act_and_train(good, 0.0)
    with pytest.raises(ValueError, match=r'DQN\.batch_act: observation 0 '
                       r'has shape \(4,\), expected \(5,\)'):
        agent.act(numpy.zeros(4, dtype=numpy.float32))
    with pytest.raises(ValueError, match=r'DQN\.batch_act_and_train: '
                       r'observation 1 has shape \(6,\), expected \(5,\)'):
        agent.batch_act_and_train([good, numpy.zeros(6, numpy.float32)])
    with pytest.raises(TypeError, match='DQN.batch_act: batch_obs must be '
                       'a sequence'):
        agent.batch_act(3)
    agent.batch_act_and_train([good, good])
    with pytest.raises(ValueError, match='DQN.batch_observe_and_train: got '
                       '3 observations but the last batch_act_and_train '
                       'acted in 2 envs'):
        agent.batch_observe_and_train([good] * 3, [0] * 3, [False] * 3,
                                      [False] * 3)
    with pytest.raises(ValueError, match='batch_reward has 1 entries but '
                       'batch_obs has 2'):
        agent.batch_observe_and_train([good] * 2, [0], [False] * 2,
                                      [False] * 2)


def test_dqn_rejects_bad_arguments():
    with pytest.raises(ValueError, match='DQN: target_update_interval .* '
                       'multiple of update_interval'):
        make_dqn(update_interval=3, target_update_interval=10)
    with pytest.raises(ValueError, match="DQN: batch_accumulator must be "
                       "'mean' or 'sum', got 'max'"):
        make_dqn(batch_accumulator='max')
    with pytest.raises(ValueError, match='DQN: gamma must be a number in'):
        agents.DQN(vt.TinyQ(5, 3), chainer.optimizers.Adam().setup(
            vt.TinyQ(5, 3)), replay_buffers.ReplayBuffer(), 1.5,
            explorers.Greedy())
    with pytest.raises(ValueError, match='replay_start_size .* exceeds the '
                       'replay buffer capacity'):
        make_dqn(replay_buffer=replay_buffers.ReplayBuffer(10),
                 replay_start_size=100)
    with pytest.raises(TypeError, match='DQN: q_function must be a '
                       'chainer_core Link'):
        agents.DQN(lambda x: x, chainer.optimizers.Adam(),
                   replay_buffers.ReplayBuffer(), 0.9, explorers.Greedy())


def test_dqn_with_train_agent_batch_with_evaluation(tmp_path):
    from chainer_rl import experiments
    vt.seed(8)
    agent = make_dqn()
    vec_env = envs.SerialVectorEnv([vt.make_env() for _ in range(2)])
    eval_env = envs.SerialVectorEnv([vt.make_env() for _ in range(2)])
    agent, history = experiments.train_agent_batch_with_evaluation(
        agent, vec_env, steps=2000, eval_n_steps=None, eval_n_episodes=4,
        eval_interval=200, outdir=str(tmp_path), eval_env=eval_env,
        successful_score=1.0)
    assert history[-1]['eval_score'] == 1.0
    vt.assert_solves_abc(agent)
    fresh = make_dqn()
    fresh.load(str(tmp_path / 'best'))
    vt.assert_solves_abc(fresh)


def test_dqn_gpu_argument():
    # None and negative ids leave the model where it is.
    agent = make_dqn('@numpy', gpu=None)
    assert str(agent.model.device) == '@numpy'
    agent = make_dqn('@numpy', gpu=-1)
    assert str(agent.model.device) == '@numpy'
    try:
        chainer.get_device('@cupy:0')
    except Exception:
        with pytest.raises(ValueError, match="DQN: gpu=0 asks for device "
                           "'@cupy:0', which is not available"):
            make_dqn(gpu=0)
    else:
        agent = make_dqn(gpu=0)
        assert str(agent.model.device) == '@cupy:0'
        vt.train_single(agent, vt.make_env(), 200)


@pytest.mark.parametrize('kind', ['stateful', 'stateless'])
def test_recurrent_sequences_are_episode_major(kind):
    from chainer_rl.agents import _recurrence
    vt.seed(9)
    q = vt.LSTMQ(5, 3) if kind == 'stateful' else stateless_lstm_q(5, 3)
    rec = _recurrence.make_recurrence(q, 'test')
    lengths = [2, 3, 1]
    xs = [numpy.random.rand(n, 5).astype('f') for n in lengths]
    out = rec.sequences(q, xs, None).q_values.array
    expected = []
    for x in xs:
        state = None
        for t in range(len(x)):
            av, state = rec.step(q, x[t:t + 1], state)
            expected.append(av.q_values.array[0])
    numpy.testing.assert_allclose(out, numpy.stack(expected), rtol=1e-5,
                                  atol=1e-6)
    # Stored per-row states batch back into the state they came from.
    _, state = rec.step(q, numpy.stack([x[0] for x in xs]), None)
    rows = [rec.state_at(q, state, i) for i in range(3)]
    joined = rec.concatenate(q, rows)
    again = rec.sequences(q, [x[:1] for x in xs], joined).q_values.array
    after = rec.step(q, numpy.stack([x[0] for x in xs]), state)[0]
    numpy.testing.assert_allclose(again, after.q_values.array, rtol=1e-5,
                                  atol=1e-6)
