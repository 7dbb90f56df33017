import numpy

import chainer_core as chainer

from chainer_rl import agents
from chainer_rl import replay_buffers

import value_agents_testing as vt


def make_double(q=None, replay_buffer=None, **kwargs):
    q = q or vt.TinyQ(vt.make_env().n_dim_obs, vt.ABC_SIZE)
    opt = chainer.optimizers.Adam(1e-2)
    opt.setup(q)
    params = dict(replay_start_size=100, target_update_interval=100,
                  minibatch_size=16)
    params.update(kwargs)
    if replay_buffer is None:
        replay_buffer = replay_buffers.ReplayBuffer(10 ** 5)
    return agents.DoubleDQN(
        q, opt, replay_buffer, 0.9,
        vt.explorer(),
        **params)


def test_double_dqn_learns_abc():
    vt.seed(0)
    agent = make_double()
    vt.train_single(agent, vt.make_env(), 1500)
    vt.assert_solves_abc(agent)


def test_double_dqn_target_by_hand():
    q = vt.LinearQ(2, 2)
    q.l.W.array[...] = numpy.array([[1, 2], [3, -1]], dtype=numpy.float32)
    agent = make_double(q=q, replay_start_size=1, target_update_interval=1)
    # The target network values s2 as [0, 4], the online one as [2, -1].
    agent.target_model.l.W.array[...] = numpy.array([[5, 0], [0, 4]],
                                                    dtype=numpy.float32)
    s1 = numpy.array([1, 0], dtype=numpy.float32)
    s2 = numpy.array([0, 1], dtype=numpy.float32)
    tr = dict(state=s1, action=0, reward=0.5, next_state=s2,
              next_action=None, is_state_terminal=False)
    errors = []
    agent.update([[tr]], errors_out=errors)
    # online argmax at s2 is action 0, the target values it 0: t = 0.5,
    # y = Q(s1, 0) = 1 (plain DQN would bootstrap from 4: t = 4.1).
    numpy.testing.assert_allclose(errors, [0.5], rtol=1e-6)
