import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L

from chainer_rl import agents
from chainer_rl import links
from chainer_rl import replay_buffers
from chainer_rl.agents import iqn

import value_agents_testing as vt


def test_iqn_reexports_the_q_function_pieces():
    from chainer_rl import q_functions
    assert iqn.ImplicitQuantileQFunction is \
        q_functions.ImplicitQuantileQFunction
    assert iqn.CosineBasisLinear is q_functions.CosineBasisLinear


def test_quantile_huber_loss_by_hand(device):
    y = chainer.Variable(device.send(numpy.array([[0.0, 1.0]], 'f')))
    t = device.send(numpy.array([[0.5, -1.0, 3.0]], 'f'))
    taus = numpy.array([[0.25, 0.75]], 'f')
    eltwise = iqn.compute_eltwise_huber_quantile_loss(y, t, taus)
    # y=0 (tau .25): deltas .5, -1, 3 -> huber .125, .5, 2.5, weights
    # tau for targets above, 1 - tau below: .25, .75, .25.
    # y=1 (tau .75): deltas -.5, -2, 2 -> .125, 1.5, 1.5; .25, .25, .75.
    expected = [[[0.03125, 0.375, 0.625], [0.03125, 0.375, 1.125]]]
    numpy.testing.assert_allclose(
        chainer.get_device('@numpy').send(eltwise.array), expected,
        rtol=1e-6)
    loss = F.sum(F.mean(eltwise, axis=2))
    loss.backward()
    # d/dy: (.25 * -.5 + .75 * 1 + .25 * -1) / 3 and (.25 * .5 + .25 * 1
    # + .75 * -1) / 3
    numpy.testing.assert_allclose(
        chainer.get_device('@numpy').send(y.grad), [[0.125, -0.125]],
        rtol=1e-5)


class ConstantEmbedding(chainer.Link):
    """phi ignoring the fractions: every quantile equals the mean."""

    def __init__(self, hidden):
        super().__init__()
        self.hidden = hidden

    def forward(self, taus):
        return chainer.Variable(
            self.xp.ones(tuple(taus.shape) + (self.hidden,), 'f'))


def _tr(s, a, r, s2, terminal):
    return [dict(state=s, action=a, reward=r, next_state=s2,
                 next_action=None, is_state_terminal=terminal)]


def test_iqn_targets_by_hand():
    # psi = identity on one-hot states, f = W: quantiles are W s at every
    # fraction; Q(s1) = [1, 3], Q(s2) = [2, -1].
    f = L.Linear(2, 2, nobias=True)
    f.W.array[...] = numpy.array([[1, 2], [3, -1]], 'f')
    q = iqn.ImplicitQuantileQFunction(
        psi=links.Sequence(lambda x: x), phi=ConstantEmbedding(2), f=f)
    opt = chainer.optimizers.SGD(lr=0.0)
    opt.setup(q)
    agent = agents.IQN(q, opt, replay_buffers.ReplayBuffer(10), 0.9,
                       vt.explorer(), replay_start_size=1,
                       quantile_thresholds_N=4,
                       quantile_thresholds_N_prime=5,
                       quantile_thresholds_K=3)
    s1 = numpy.array([1, 0], 'f')
    s2 = numpy.array([0, 1], 'f')
    from chainer_rl.replay_buffer import batch_experiences
    batch = batch_experiences(
        [_tr(s1, 0, 0.5, s2, False), _tr(s2, 1, 1.0, s1, True)],
        numpy, lambda x: x, 0.9)
    t = agent._compute_target_values(batch)
    numpy.testing.assert_allclose(t, [[2.3] * 5, [1.0] * 5], rtol=1e-6)
    y, taus = agent._compute_y_and_taus(batch)
    assert taus.shape == (2, 4)
    numpy.testing.assert_allclose(y.array, [[1.0] * 4, [-1.0] * 4])
    errors = []
    agent.update([_tr(s1, 0, 0.5, s2, False)], errors_out=errors)
    # All 4 x 5 pairs have delta 1.3 above the prediction: weight tau_i,
    # huber 0.8; the mean over pairs is 0.8 * mean(taus).
    assert 0.0 < errors[0] < 0.8


def make_iqn(**kwargs):
    env = vt.make_env()
    hidden = 32
    q = iqn.ImplicitQuantileQFunction(
        psi=links.Sequence(L.Linear(env.n_dim_obs, hidden), F.relu),
        phi=links.Sequence(iqn.CosineBasisLinear(32, hidden), F.relu),
        f=L.Linear(hidden, vt.ABC_SIZE))
    opt = chainer.optimizers.Adam(1e-2)
    opt.setup(q)
    params = dict(replay_start_size=100, target_update_interval=100,
                  minibatch_size=16, quantile_thresholds_N=16,
                  quantile_thresholds_N_prime=16, quantile_thresholds_K=8)
    params.update(kwargs)
    replay_buffer = params.pop('replay_buffer',
                               replay_buffers.ReplayBuffer(10 ** 5))
    return agents.IQN(q, opt, replay_buffer, 0.9, vt.explorer(), **params)


def test_iqn_defaults_are_chainerrl_s():
    agent = make_iqn(quantile_thresholds_N=64,
                     quantile_thresholds_N_prime=64,
                     quantile_thresholds_K=32)
    import inspect
    params = inspect.signature(agents.IQN.__init__).parameters
    assert params['quantile_thresholds_N'].default == 64
    assert params['quantile_thresholds_N_prime'].default == 64
    assert params['quantile_thresholds_K'].default == 32
    assert agent.quantile_thresholds_K == 32


def test_iqn_learns_abc_and_save_load(tmp_path):
    vt.seed(0)
    agent = make_iqn()
    vt.train_single(agent, vt.make_env(), 1000)
    vt.assert_solves_abc(agent)
    obs = vt.abc_observations(vt.make_env())[:vt.ABC_SIZE]
    before = vt.assert_load_reproduces(agent, make_iqn, str(tmp_path), obs)
    assert before == list(range(vt.ABC_SIZE))


def test_iqn_prioritized_nstep_learns_abc():
    vt.seed(1)
    agent = make_iqn(replay_buffer=replay_buffers.PrioritizedReplayBuffer(
        10 ** 5, num_steps=2))
    vt.train_single(agent, vt.make_env(), 1000)
    vt.assert_solves_abc(agent)


def test_iqn_update_matches_on_every_device(device):
    losses = []
    obs = vt.abc_observations(vt.make_env())
    for dev in ('@numpy', device):
        vt.seed(2)
        agent = make_iqn(replay_start_size=1, average_loss_decay=0.0)
        agent.model.to_device(dev)
        agent.target_model.to_device(dev)
        agent.update([_tr(obs[k], k % 3, float(k == 2), obs[k + 1], k == 2)
                      for k in range(3)])
        losses.append(agent.average_loss)
    assert losses[1] == pytest.approx(losses[0], rel=1e-4)


def test_iqn_rejects_bad_arguments():
    with pytest.raises(ValueError, match='IQN: quantile_thresholds_K must '
                       'be at least 1, got 0'):
        make_iqn(quantile_thresholds_K=0)
    agent = agents.IQN(vt.TinyQ(5, 3), chainer.optimizers.Adam().setup(
        vt.TinyQ(5, 3)), replay_buffers.ReplayBuffer(), 0.9,
        vt.explorer())
    with pytest.raises(ValueError, match='IQN.batch_act: the q_function '
                       'could not evaluate .*must return a function of the '
                       'quantile fractions'):
        agent.act(numpy.zeros(5, 'f'))


def test_iqn_recurrent_updates_from_episodes():
    vt.seed(3)
    env = vt.make_env(partially_observable=True)
    hidden = 16
    q = iqn.StatelessRecurrentImplicitQuantileQFunction(
        psi=links.StatelessRecurrentSequential(
            L.Linear(env.n_dim_obs, hidden), F.relu,
            L.NStepLSTM(1, hidden, hidden, 0)),
        phi=links.Sequence(iqn.CosineBasisLinear(16, hidden), F.relu),
        f=L.Linear(hidden, vt.ABC_SIZE))
    opt = chainer.optimizers.Adam(1e-2)
    opt.setup(q)
    agent = agents.IQN(q, opt, replay_buffers.EpisodicReplayBuffer(10 ** 4),
                       0.9, vt.explorer(), replay_start_size=20,
                       minibatch_size=4, recurrent=True,
                       episodic_update_len=2, quantile_thresholds_N=8,
                       quantile_thresholds_N_prime=8,
                       quantile_thresholds_K=4)
    vt.train_single(agent, env, 120)
    assert agent.optimizer.t > 50
    assert numpy.isfinite(agent.average_loss)
    vt.greedy_returns(agent, env, 2)
