import numpy
import pytest

import chainer_core as chainer

from chainer_rl import agents
from chainer_rl import envs
from chainer_rl import explorer as explorer_module
from chainer_rl import replay_buffers

import value_agents_testing as vt


S1 = numpy.array([1, 0], dtype=numpy.float32)
S2 = numpy.array([0, 1], dtype=numpy.float32)


def _hand_agent(**kwargs):
    # Q(s1) = [1, 3], Q(s2) = [2, -1].
    q = vt.LinearQ(2, 2)
    q.l.W.array[...] = numpy.array([[1, 2], [3, -1]], 'f')
    opt = chainer.optimizers.SGD(lr=0.0)
    opt.setup(q)
    params = dict(replay_start_size=1)
    params.update(kwargs)
    return agents.SARSA(q, opt, replay_buffers.ReplayBuffer(100), 0.9,
                        vt.explorer(), **params)


def test_sarsa_target_uses_the_next_action_by_hand():
    agent = _hand_agent()
    errors = []
    agent.update([[dict(state=S1, action=0, reward=0.5, next_state=S2,
                        next_action=1, is_state_terminal=False)],
                  [dict(state=S2, action=0, reward=1.0, next_state=S1,
                        next_action=0, is_state_terminal=True)]],
                 errors_out=errors)
    # 0.5 + 0.9 Q(s2, 1) = -0.4 (Q-learning: 2.3); y = Q(s1, 0) = 1
    numpy.testing.assert_allclose(errors, [1.4, 1.0], rtol=1e-5)


class Scripted(explorer_module.Explorer):
    def __init__(self, actions):
        self.actions = list(actions)

    def select_action(self, t, greedy_action_func, action_value=None):
        return self.actions.pop(0)


def test_sarsa_stores_the_next_action_actually_taken():
    agent = _hand_agent(replay_start_size=100)
    agent.explorer = Scripted([1, 0, 1, 1, 0, 0])
    agent._explorer_needs_values = True
    # Two envs: env 0 continues, env 1 is cut short (reset), then both
    # continue one more step.
    agent.batch_act_and_train([S1, S2])                    # actions 1, 0
    agent.batch_observe_and_train([S2, S1], [0.0, 1.0], [False, False],
                                  [False, True])           # env 1: a' 1
    assert len(agent.replay_buffer) == 1
    agent.batch_act_and_train([S2, S2])                    # actions 1, 0
    agent.batch_observe_and_train([S1, S1], [0.5, 0.0], [True, False],
                                  [False, False])
    items = [item[0] for item in agent.replay_buffer.memory]
    got = sorted((int(tr['state'][1]), tr['action'], tr['next_action'],
                  tr['reward']) for tr in items)
    # env 1's cut episode: (s2, 0) -> a' = 1 drawn at its last obs; env
    # 0's first step: (s1, 1) -> a' = 1 taken next; env 0 terminal: a'
    # is a placeholder; env 1's new step waits for its next action.
    assert got == [(0, 1, 1, 0.0), (1, 0, 1, 1.0), (1, 1, 1, 0.5)]
    assert len(agent._pending) == 1


def make_sarsa(**kwargs):
    q = vt.TinyQ(vt.make_env().n_dim_obs, vt.ABC_SIZE)
    opt = chainer.optimizers.Adam(1e-2)
    opt.setup(q)
    return agents.SARSA(q, opt, replay_buffers.ReplayBuffer(10 ** 5), 0.9,
                        vt.explorer(), replay_start_size=100,
                        target_update_interval=100, minibatch_size=16,
                        **kwargs)


def test_sarsa_learns_abc_and_save_load(tmp_path):
    vt.seed(0)
    agent = make_sarsa()
    vt.train_single(agent, vt.make_env(), 1500)
    vt.assert_solves_abc(agent)
    vt.assert_load_reproduces(agent, lambda: make_sarsa(), str(tmp_path))


def test_sarsa_vector_env_with_time_limit_learns_abc():
    # One env is always cut short (reset) before its reward.
    vt.seed(2)
    agent = make_sarsa()
    vt.train_batch(agent, envs.SerialVectorEnv(
        [vt.make_env(time_limit=2) if i else vt.make_env()
         for i in range(2)]), 900)
    vt.assert_solves_abc(agent)


def test_sarsa_needs_next_actions():
    agent = _hand_agent()
    with pytest.raises(ValueError, match='SARSA: the sampled transitions '
                       'lack next_action'):
        agent.update([[dict(state=S1, action=0, reward=0.5, next_state=S2,
                            next_action=None, is_state_terminal=False)]])


def test_sarsa_recurrent_updates_from_episodes():
    import chainer_core.functions as F
    import chainer_core.links as L
    from chainer_rl import links
    from chainer_rl.action_value import DiscreteActionValue
    vt.seed(3)
    env = vt.make_env(partially_observable=True, time_limit=2)
    q = links.StatelessRecurrentSequential(
        L.Linear(env.n_dim_obs, 8), F.relu, L.NStepLSTM(1, 8, 8, 0),
        L.Linear(8, vt.ABC_SIZE), DiscreteActionValue)
    opt = chainer.optimizers.Adam(1e-2)
    opt.setup(q)
    agent = agents.SARSA(q, opt, replay_buffers.EpisodicReplayBuffer(10 ** 4),
                         0.9, vt.explorer(), replay_start_size=10,
                         minibatch_size=4, recurrent=True)
    vt.train_batch(agent, envs.SerialVectorEnv(
        [env, vt.make_env(partially_observable=True)]), 60)
    assert agent.optimizer.t > 50
    episodes = agent.replay_buffer.sample_episodes(4)
    assert all(tr['next_action'] is not None for ep in episodes
               for tr in ep)
