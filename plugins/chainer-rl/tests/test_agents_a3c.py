"""A3C: two real processes learning the ABC task through
train_agent_async (feed-forward, and recurrent on a partially observable
ABC), the gradient of a segment by hand, save/load and bad input."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.links as L

from chainer_rl.agents.a3c import A3C
from chainer_rl.agents.a3c import A3CSeparateModel
from chainer_rl.agents.a3c import A3CSharedModel
from chainer_rl.distribution import SoftmaxDistribution
from chainer_rl.experiments import train_agent_async
from chainer_rl.misc import set_random_seed

import policy_gradient_agents_testing as T


def _a3c(model, lr=1e-2, **kwargs):
    opt = chainer.optimizers.Adam(lr)
    opt.setup(model)
    params = dict(t_max=5, gamma=0.9, beta=1e-2,
                  act_deterministically=True)
    params.update(kwargs)
    return A3C(model, opt, **params)


def _train_async(agent, tmp_path, steps, **env_kwargs):
    def make_env(process_idx, test):
        return T.make_env(deterministic=test, seed=process_idx,
                          **env_kwargs)
    train_agent_async(outdir=str(tmp_path), processes=2, make_env=make_env,
                      steps=steps, eval_interval=None, agent=agent)


def test_two_processes_learn_abc(tmp_path):
    set_random_seed(0)
    agent = _a3c(A3CSeparateModel(T.Policy(), T.VFunction()))
    _train_async(agent, tmp_path, 4000)
    # the parent's agent reads the parameters the processes trained
    assert T.greedy_returns(agent) == [1.0] * 10
    assert (tmp_path / '4000_finish' / 'model.npz').exists()


@pytest.mark.slow
def test_two_processes_learn_partially_observable_abc(tmp_path):
    set_random_seed(0)
    # Two processes make the run nondeterministic. A policy that commits
    # early to one of the two observation modes rarely recovers; the smaller
    # step and the larger entropy bonus keep it exploring (20 of 20 runs of
    # 12000 steps learned both modes, 8000 steps at lr 1e-2 about 2 in 3).
    agent = _a3c(A3CSeparateModel(T.RecurrentPolicy(), T.VFunction()),
                 lr=3e-3, beta=0.1)
    assert agent.recurrent
    _train_async(agent, tmp_path, 12000, partially_observable=True)
    assert T.greedy_returns(agent, partially_observable=True) == [1.0] * 10


class _LinearModel(chainer.Chain):
    """Uniform policy (zero logits) and value = w . obs."""

    def __init__(self, w):
        super().__init__()
        with self.init_scope():
            self.logits = L.Linear(T.OBS_SIZE, T.ABC_SIZE, nobias=True,
                                   initialW=0.0)
            self.v = L.Linear(T.OBS_SIZE, 1, nobias=True,
                              initialW=numpy.asarray([w], numpy.float32))

    def pi_and_v(self, x):
        return SoftmaxDistribution(self.logits(x)), self.v(x)


@pytest.mark.parametrize('done', [False, True])
def test_segment_gradient_by_hand(done):
    # lr 0 keeps the parameters; the shared model's gradients are the
    # segment's. The entropy's gradient vanishes at the uniform policy.
    w = [1., 2., 3., 4., 5.]
    model = _LinearModel(w)
    opt = chainer.optimizers.SGD(lr=0.0)
    opt.setup(model)
    agent = A3C(model, opt, t_max=2, gamma=0.5, beta=0.3, v_loss_coef=0.5)
    o = T.abc_observations()
    a0 = agent.act_and_train(o[0], 0.0)
    a1 = agent.act_and_train(o[1], 1.0)
    if done:
        agent.stop_episode_and_train(o[4], 2.0, done=True)
        boot = 0.0
    else:
        agent.act_and_train(o[4], 2.0)     # t_max reached: bootstrap V(o4)
        boot = 5.0
    assert agent.n_updates == 1
    returns = [1 + 0.5 * (2 + 0.5 * boot), 2 + 0.5 * boot]
    values = [1.0, 2.0]
    adv = [r - v for r, v in zip(returns, values)]
    expected_v = sum(0.5 * (v - r) * o[i] for i, (v, r) in
                     enumerate(zip(values, returns)))
    numpy.testing.assert_allclose(model.v.W.grad[0], expected_v, rtol=1e-5)
    expected_pi = numpy.zeros((T.ABC_SIZE, T.OBS_SIZE))
    for s, a, ad in zip((o[0], o[1]), (a0, a1), adv):
        expected_pi -= ad * numpy.outer(numpy.eye(T.ABC_SIZE)[int(a)]
                                        - 1.0 / 3, s)
    numpy.testing.assert_allclose(model.logits.W.grad, expected_pi,
                                  rtol=1e-5, atol=1e-7)


def test_shared_model_and_save_load(tmp_path):
    set_random_seed(0)
    shared = L.Linear(T.OBS_SIZE, 16)
    model = A3CSharedModel(shared, T.Policy(n_in=16), T.VFunction(n_in=16))
    agent = _a3c(model)
    assert agent.shared_attributes == ('shared_model', 'optimizer')
    assert agent.model is not agent.shared_model
    T.train_single(agent, 300, T.make_env(seed=0))
    agent.save(str(tmp_path / 'a3c'))
    fresh = _a3c(A3CSharedModel(L.Linear(T.OBS_SIZE, 16),
                                T.Policy(n_in=16), T.VFunction(n_in=16)))
    fresh.load(str(tmp_path / 'a3c'))
    obs = T.abc_observations()
    numpy.testing.assert_array_equal(T.greedy_actions(agent, obs),
                                     T.greedy_actions(fresh, obs))
    numpy.testing.assert_array_equal(fresh.model.shared.W.array,
                                     fresh.shared_model.shared.W.array)
    assert [name for name, _ in agent.get_statistics()] == [
        'average_value', 'average_entropy']


def test_bad_input_is_reported_with_names():
    agent = _a3c(T.PolicyAndValue())
    good = numpy.zeros(T.OBS_SIZE, numpy.float32)
    agent.batch_act_and_train([good, good])
    with pytest.raises(ValueError, match=r"A3C\.batch_observe_and_train: "
                       r"batch_obs\[0\] has shape \(6,\), expected \(5,\)"):
        agent.batch_observe_and_train([numpy.zeros(6, numpy.float32), good],
                                      [0, 0], [False] * 2, [False] * 2)
    with pytest.raises(RuntimeError, match=r'A3C\.batch_observe_and_train: '
                       r'there are no actions to observe'):
        fresh = _a3c(T.PolicyAndValue())
        fresh.batch_observe_and_train([good], [0], [False], [False])
    with pytest.raises(ValueError, match='A3C: t_max must be at least 1'):
        _a3c(T.PolicyAndValue(), t_max=0)
