import numpy
import pytest

import chainer_core as chainer

from chainer_rl import agents
from chainer_rl import replay_buffers

import value_agents_testing as vt


S1 = numpy.array([1, 0], dtype=numpy.float32)
S2 = numpy.array([0, 1], dtype=numpy.float32)


def _tr(s, a, r, s2, terminal=False):
    return [dict(state=s, action=a, reward=r, next_state=s2,
                 next_action=None, is_state_terminal=terminal)]


def _hand_agent(cls, target_w=None, **kwargs):
    # Online Q(s1) = [1, 3], Q(s2) = [2, -1].
    q = vt.LinearQ(2, 2)
    q.l.W.array[...] = numpy.array([[1, 2], [3, -1]], 'f')
    opt = chainer.optimizers.SGD(lr=0.0)
    opt.setup(q)
    agent = cls(q, opt, replay_buffers.ReplayBuffer(10), 0.9,
                vt.explorer(), replay_start_size=1, **kwargs)
    if target_w is not None:
        agent.target_model.l.W.array[...] = numpy.asarray(target_w, 'f')
    return agent


def test_pal_targets_by_hand():
    agent = _hand_agent(agents.PAL, alpha=0.9)
    errors = []
    agent.update([_tr(S1, 0, 0.5, S1), _tr(S2, 1, 0.0, S1)],
                 errors_out=errors)
    # (s1, 0 -> s1): 0.5 + 0.9 * 3 + 0.9 * max(1 - 3, 1 - 3) = 1.4; y = 1
    # (s2, 1 -> s1): 0.9 * 3 + 0.9 * max(-1 - 2, 3 - 3) = 2.7; y = -1
    numpy.testing.assert_allclose(errors, [0.4, 3.7], rtol=1e-5)


def test_pal_terminal_and_alpha_zero_is_dqn():
    agent = _hand_agent(agents.PAL, alpha=0.0)
    errors = []
    agent.update([_tr(S1, 0, 0.5, S1), _tr(S1, 0, 1.0, S2, True)],
                 errors_out=errors)
    numpy.testing.assert_allclose(errors, [2.2, 0.0], atol=1e-6)


def test_double_pal_targets_by_hand():
    # Target Q'(s1) = [0, 2], Q'(s2) = [0, 1]; the online network's greedy
    # actions are 1 at s1 and 0 at s2.
    agent = _hand_agent(agents.DoublePAL, target_w=[[0, 0], [2, 1]],
                        alpha=0.9)
    errors = []
    agent.update([_tr(S1, 0, 0.5, S2), _tr(S2, 1, 0.0, S2)],
                 errors_out=errors)
    # (s1, 0 -> s2): 0.5 + 0.9 Q'(s2, 0) + 0.9 max(0 - 2, 0 - 0) = 0.5
    # (s2, 1 -> s2): 0.9 Q'(s2, 0) + 0.9 max(1 - 0, 1 - 0) = 0.9; y = -1
    numpy.testing.assert_allclose(errors, [0.5, 1.9], rtol=1e-5)


def make_pal(cls, **kwargs):
    q = vt.TinyQ(vt.make_env().n_dim_obs, vt.ABC_SIZE)
    opt = chainer.optimizers.Adam(1e-2)
    opt.setup(q)
    return cls(q, opt, replay_buffers.ReplayBuffer(10 ** 5), 0.9,
               vt.explorer(), replay_start_size=100,
               target_update_interval=100, minibatch_size=16, **kwargs)


@pytest.mark.parametrize('cls', [agents.PAL, agents.DoublePAL])
def test_pal_learns_abc_and_save_load(cls, tmp_path):
    vt.seed(0)
    agent = make_pal(cls)
    assert agent.alpha == 0.9
    vt.train_single(agent, vt.make_env(), 1500)
    vt.assert_solves_abc(agent)
    vt.assert_load_reproduces(agent, lambda: make_pal(cls), str(tmp_path))


def test_pal_rejects_bad_alpha():
    with pytest.raises(ValueError, match=r'PAL: alpha must be a number in '
                       r'\[0, 1\], got 2'):
        make_pal(agents.PAL, alpha=2)
