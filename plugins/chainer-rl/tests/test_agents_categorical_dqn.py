import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L

from chainer_rl import agents
from chainer_rl import explorers
from chainer_rl import q_functions
from chainer_rl import replay_buffers
from chainer_rl.agents.categorical_dqn import apply_categorical_projection

import value_agents_testing as vt


def test_projection_by_hand(device):
    z = numpy.array([-1, 0, 1], dtype=numpy.float32)
    # 0.5 splits evenly between atoms 0 and 1; 2.0 is clipped onto atom 1;
    # -0.25 gives a quarter of its mass to -1 and three quarters to 0.
    y = numpy.array([[0.5, 2.0, -0.25], [-1.0, 0.0, 1.0]], numpy.float32)
    p = numpy.array([[0.2, 0.3, 0.5], [0.1, 0.2, 0.7]], numpy.float32)
    out = apply_categorical_projection(device.send(y), device.send(p),
                                       device.send(z))
    out = chainer.get_device('@numpy').send(out)
    numpy.testing.assert_allclose(out, [[0.125, 0.475, 0.4],
                                        [0.1, 0.2, 0.7]], atol=1e-6)


def test_projection_uneven_grid_and_bad_shapes():
    z = numpy.array([0.0, 2.0, 4.0, 6.0], dtype=numpy.float32)
    y = numpy.array([[-3.0, 1.5, 5.0, 9.0]], numpy.float32)
    p = numpy.array([[0.25, 0.25, 0.25, 0.25]], numpy.float32)
    out = apply_categorical_projection(y, p, z)
    # 1.5 -> 0.25 * (0.25, 0.75) on atoms (0, 2); 5 -> halves on (4, 6)
    numpy.testing.assert_allclose(
        out, [[0.25 + 0.0625, 0.1875, 0.125, 0.125 + 0.25]], atol=1e-6)
    with pytest.raises(ValueError, match='y and y_probs must both have '
                       r'shape \(batch_size, 4\)'):
        apply_categorical_projection(y[:, :3], p[:, :3], z)


class TableDistribution(chainer.Chain):
    """Per one-hot state, a given distribution per action: rows of W."""

    def __init__(self, table):
        # table: (n_states, n_actions, n_atoms)
        n_states, self.n_actions, self.n_atoms = table.shape
        super().__init__()
        with self.init_scope():
            self.l = L.Linear(n_states, self.n_actions * self.n_atoms,
                              nobias=True)
        self.l.W.array[...] = table.reshape(n_states, -1).T

    def forward(self, x):
        return F.reshape(self.l(x), (-1, self.n_actions, self.n_atoms))


TABLE = numpy.array([[[0.2, 0.3, 0.5], [1.0, 0.0, 0.0]],
                     [[0.0, 0.5, 0.5], [0.6, 0.4, 0.0]]], numpy.float32)
Z = numpy.array([-1, 0, 1], numpy.float32)
S1 = numpy.array([1, 0], dtype=numpy.float32)
S2 = numpy.array([0, 1], dtype=numpy.float32)


def _tr(s, a, r, s2, terminal):
    return [dict(state=s, action=a, reward=r, next_state=s2,
                 next_action=None, is_state_terminal=terminal)]


def _table_agent(cls, table=TABLE, **kwargs):
    q = q_functions.DistributionalSingleModelStateQFunctionWithDiscreteAction(
        TableDistribution(table), Z)
    opt = chainer.optimizers.SGD(lr=0.0)
    opt.setup(q)
    return cls(q, opt, replay_buffers.ReplayBuffer(100), 0.5,
               explorers.Greedy(), replay_start_size=1,
               average_loss_decay=0.0, **kwargs)


def test_categorical_dqn_targets_and_loss_by_hand():
    agent = _table_agent(agents.CategoricalDQN)
    errors = []
    agent.update([_tr(S1, 0, 0.5, S2, False), _tr(S2, 1, -1.0, S1, True)],
                 errors_out=errors)
    # s2's greedy action is 0 (mean 0.5 > -0.6): 0.5 + 0.5 z = (0, .5, 1)
    # with probabilities (0, .5, .5) projects to (0, .25, .75). The
    # terminal one puts everything on -1.
    ce1 = -(0.25 * math.log(0.3) + 0.75 * math.log(0.5))
    ce2 = -math.log(0.6)
    numpy.testing.assert_allclose(errors, [ce1, ce2], rtol=1e-5)
    assert agent.average_loss == pytest.approx((ce1 + ce2) / 2, rel=1e-5)
    summed = _table_agent(agents.CategoricalDQN, batch_accumulator='sum')
    summed.update([_tr(S1, 0, 0.5, S2, False), _tr(S2, 1, -1.0, S1, True)])
    assert summed.average_loss == pytest.approx(ce1 + ce2, rel=1e-5)


def test_categorical_double_dqn_target_by_hand():
    agent = _table_agent(agents.CategoricalDoubleDQN)
    # The target network prefers action 1 at s2 but the online one picks
    # action 0, whose target distribution (0, 0, 1) is used.
    target_table = TABLE.copy()
    target_table[1] = [[0.0, 0.0, 1.0], [0.0, 0.0, 1.0]]
    target_table[1, 1] = [0.0, 0.0, 1.0]
    target_table[1, 0] = [0.0, 1.0, 0.0]
    agent.target_model.model.l.W.array[...] = target_table.reshape(2, -1).T
    errors = []
    agent.update([_tr(S1, 0, 0.5, S2, False)], errors_out=errors)
    # 0.5 + 0.5 * 0 = 0.5 with probability 1: halves on atoms 0 and 1.
    numpy.testing.assert_allclose(
        errors, [-(0.5 * math.log(0.3) + 0.5 * math.log(0.5))], rtol=1e-5)


def make_c51(cls=agents.CategoricalDQN, replay_buffer=None, **kwargs):
    env = vt.make_env()
    q = q_functions.DistributionalFCStateQFunctionWithDiscreteAction(
        env.n_dim_obs, vt.ABC_SIZE, n_atoms=11, v_min=-1.0, v_max=1.0,
        n_hidden_channels=20, n_hidden_layers=1)
    opt = chainer.optimizers.Adam(1e-2)
    opt.setup(q)
    params = dict(replay_start_size=100, target_update_interval=100,
                  minibatch_size=16)
    params.update(kwargs)
    if replay_buffer is None:
        replay_buffer = replay_buffers.ReplayBuffer(10 ** 5)
    return cls(q, opt, replay_buffer, 0.9,
               vt.explorer(),
               **params)


@pytest.mark.parametrize('cls', [agents.CategoricalDQN,
                                 agents.CategoricalDoubleDQN])
def test_categorical_dqn_learns_abc(cls, tmp_path):
    vt.seed(0)
    agent = make_c51(cls)
    vt.train_single(agent, vt.make_env(), 1500)
    vt.assert_solves_abc(agent)
    vt.assert_load_reproduces(agent, lambda: make_c51(cls), str(tmp_path))


def test_categorical_dqn_prioritized_learns_abc():
    vt.seed(1)
    agent = make_c51(replay_buffer=replay_buffers.PrioritizedReplayBuffer(
        10 ** 5, num_steps=2))
    vt.train_single(agent, vt.make_env(), 1200)
    vt.assert_solves_abc(agent)


def test_categorical_dqn_update_matches_on_every_device(device):
    losses = []
    for dev in ('@numpy', device):
        vt.seed(2)
        agent = make_c51(replay_start_size=1, average_loss_decay=0.0)
        agent.model.to_device(dev)
        agent.target_model.to_device(dev)
        agent.update([_tr(vt.abc_observations(vt.make_env())[k], k % 3,
                          float(k == 2), vt.abc_observations(
                              vt.make_env())[k + 1], k == 2)
                      for k in range(3)])
        losses.append(agent.average_loss)
    assert losses[1] == pytest.approx(losses[0], rel=1e-4)
