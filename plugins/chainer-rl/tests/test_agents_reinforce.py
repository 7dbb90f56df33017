"""REINFORCE: learning the ABC task (single env, batches of episodes with
a baseline, separate backward passes, vector envs, a recurrent policy on
a partially observable ABC), the gradient by hand, truncated episodes,
save/load and bad input."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.links as L

from chainer_rl.agents.reinforce import REINFORCE
from chainer_rl.distribution import SoftmaxDistribution
from chainer_rl.misc import set_random_seed

import policy_gradient_agents_testing as T


def _reinforce(model, lr=1e-2, **kwargs):
    opt = chainer.optimizers.Adam(lr)
    opt.setup(model)
    kwargs.setdefault('act_deterministically', True)
    return REINFORCE(model, opt, **kwargs)


@pytest.mark.parametrize('batchsize,backward_separately,baseline', [
    (1, False, None), (4, False, 'mean'), (4, True, 'mean')])
def test_learns_abc(batchsize, backward_separately, baseline):
    set_random_seed(0)
    agent = _reinforce(T.Policy(), batchsize=batchsize,
                       backward_separately=backward_separately,
                       baseline=baseline)
    T.train_single(agent, 2000, T.make_env(seed=0))
    assert T.greedy_returns(agent) == [1.0] * 10
    assert agent.n_updates > 0
    assert [name for name, _ in agent.get_statistics()] == [
        'average_entropy']


def test_learns_abc_with_vector_env():
    set_random_seed(0)
    agent = _reinforce(T.Policy(), batchsize=4, baseline='mean')
    T.train_batch(agent, 3000, [T.make_env(seed=i) for i in range(4)])
    assert T.greedy_returns(agent) == [1.0] * 10


@pytest.mark.slow
def test_recurrent_policy_learns_partially_observable_abc():
    set_random_seed(0)
    agent = _reinforce(T.RecurrentPolicy(), lr=3e-2, batchsize=4,
                       baseline='mean')
    assert agent.recurrent
    T.train_single(agent, 4000, T.make_env(partially_observable=True,
                                           seed=0))
    assert T.greedy_returns(agent, partially_observable=True) == [1.0] * 10


def test_gradient_by_hand():
    # linear softmax policy; lr 0 keeps the parameters, so the gradient of
    # the update stays readable in W.grad
    W = numpy.array([[0.1, -0.2, 0.3, 0.0, 0.1],
                     [0.0, 0.2, -0.1, 0.1, 0.0],
                     [-0.3, 0.1, 0.0, 0.2, 0.1]], numpy.float32)

    class Linear(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l = L.Linear(T.OBS_SIZE, T.ABC_SIZE, nobias=True,
                                  initialW=W)

        def forward(self, x):
            return SoftmaxDistribution(self.l(x))

    model = Linear()
    opt = chainer.optimizers.SGD(lr=0.0)
    opt.setup(model)
    agent = REINFORCE(model, opt, beta=0.0, batchsize=1, baseline=0.5)
    o = T.abc_observations()
    actions = []
    actions.append(agent.act_and_train(o[0], 0.0))
    actions.append(agent.act_and_train(o[1], 2.0))
    agent.stop_episode_and_train(o[2], 1.0, done=True)
    # returns: 3, 1; minus baseline 0.5: 2.5, 0.5
    expected = numpy.zeros_like(W, dtype=numpy.float64)
    for s, a, w in zip((o[0], o[1]), actions, (2.5, 0.5)):
        z = W.astype(numpy.float64) @ s
        p = numpy.exp(z - z.max())
        p /= p.sum()
        onehot = numpy.eye(T.ABC_SIZE)[int(a)]
        expected -= w * numpy.outer(onehot - p, s)
    numpy.testing.assert_allclose(model.l.W.grad, expected, rtol=1e-5,
                                  atol=1e-7)
    assert agent.n_updates == 1


def test_truncated_episode_is_dropped_with_a_warning():
    agent = _reinforce(T.Policy(), batchsize=1)
    o = T.abc_observations()
    agent.act_and_train(o[0], 0.0)
    with pytest.warns(UserWarning, match='REINFORCE: an episode ended '
                      'without reaching a terminal state'):
        agent.stop_episode_and_train(o[1], 1.0, done=False)
    assert agent.n_updates == 0


def test_save_load_reproduces_greedy_actions(tmp_path):
    set_random_seed(0)
    agent = _reinforce(T.Policy())
    T.train_single(agent, 200, T.make_env(seed=0))
    agent.save(str(tmp_path / 'agent'))
    fresh = _reinforce(T.Policy())
    fresh.load(str(tmp_path / 'agent'))
    obs = T.abc_observations()
    numpy.testing.assert_array_equal(T.greedy_actions(agent, obs),
                                     T.greedy_actions(fresh, obs))


def test_bad_input_is_reported_with_names():
    agent = _reinforce(T.Policy())
    good = numpy.zeros(T.OBS_SIZE, numpy.float32)
    with pytest.raises(ValueError, match=r'REINFORCE\.batch_act: the model '
                       r'rejected observations of shape \(7,\)'):
        agent.batch_act([numpy.zeros(7, numpy.float32)])
    agent.batch_act_and_train([good, good])
    with pytest.raises(ValueError, match=r'REINFORCE\.batch_observe_and_'
                       r'train: batch_obs has 1 entries, expected 2'):
        agent._batch_observe_train([good], [0.0], [False], [False])
    with pytest.raises(ValueError, match="REINFORCE: baseline must be"):
        _reinforce(T.Policy(), baseline='median')
