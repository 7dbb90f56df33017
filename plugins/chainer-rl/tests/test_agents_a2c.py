"""A2C: learning the ABC task with vector envs (discrete and continuous),
hand-computed n-step and GAE returns with truncation, save/load and bad
input."""
import numpy
import pytest

import chainer_core as chainer

from chainer_rl.agents.a2c import A2C
from chainer_rl.agents.a2c import A2CSeparateModel
from chainer_rl.misc import set_random_seed

import policy_gradient_agents_testing as T


def _a2c(model, num_processes, lr=1e-2, **kwargs):
    opt = chainer.optimizers.Adam(lr)
    opt.setup(model)
    params = dict(gamma=0.9, update_steps=5, act_deterministically=True)
    params.update(kwargs)
    return A2C(model, opt, num_processes=num_processes, **params)


@pytest.mark.parametrize('use_gae', [False, True])
def test_learns_abc_with_vector_env(use_gae):
    set_random_seed(0)
    agent = _a2c(A2CSeparateModel(T.Policy(), T.VFunction()), 4,
                 use_gae=use_gae)
    T.train_batch(agent, 4000, [T.make_env(seed=i) for i in range(4)])
    assert T.greedy_returns(agent) == [1.0] * 10
    names = [name for name, _ in agent.get_statistics()]
    assert names == ['average_actor', 'average_value', 'average_entropy']


def test_learns_continuous_abc():
    set_random_seed(0)
    agent = _a2c(T.PolicyAndValue(discrete=False), 4, use_gae=True)
    T.train_batch(agent, 6000, [T.make_env(discrete=False, seed=i)
                                for i in range(4)])
    assert T.greedy_returns(agent, discrete=False) == [1.0] * 10


def test_single_env_api_with_one_process():
    set_random_seed(0)
    agent = _a2c(T.PolicyAndValue(), 1)
    T.train_single(agent, 2000, T.make_env(seed=0))
    assert T.greedy_returns(agent) == [1.0] * 10


@pytest.mark.parametrize('use_gae', [False, True])
def test_returns_by_hand(use_gae):
    # values of obs[0..4]: 1, 2, 3, 4, 5; gamma 0.5, tau 0.5
    agent = _a2c(T.LinearV([1., 2., 3., 4., 5.]), 2, update_steps=3,
                 gamma=0.5, tau=0.5, use_gae=use_gae)
    captured = []
    compute = agent._compute_returns
    agent._compute_returns = lambda data: captured.append(
        compute(data)) or captured[-1]
    o = T.abc_observations()
    # env 0: truncated after step 0 (final obs[3]), terminal after step 2
    # env 1: no episode end; bootstraps from obs[4] after step 2
    agent.batch_act_and_train([o[0], o[1]])
    agent.batch_observe_and_train([o[3], o[2]], [1., 0.], [False, False],
                                  [True, False])
    agent.batch_act_and_train([o[1], o[2]])
    agent.batch_observe_and_train([o[2], o[0]], [0., 1.], [False, False],
                                  [False, False])
    agent.batch_act_and_train([o[2], o[0]])
    agent.batch_observe_and_train([o[0], o[4]], [2., 0.], [True, False],
                                  [False, False])
    (returns,) = captured
    if not use_gae:
        env0 = [1 + 0.5 * 4, 0 + 0.5 * 2, 2]
        env1 = [0 + 0.5 * (1 + 0.5 * (0 + 0.5 * 5)), 1 + 0.5 * 2.5,
                0 + 0.5 * 5]
    else:
        d = [1 + 0.5 * 4 - 1, 0 + 0.5 * 3 - 2, 2 - 3]
        env0 = [d[0], d[1] + 0.25 * d[2], d[2]]
        env0 = [a + v for a, v in zip(env0, [1, 2, 3])]
        e = [0 + 0.5 * 3 - 2, 1 + 0.5 * 1 - 3, 0 + 0.5 * 5 - 1]
        env1 = [e[0] + 0.25 * e[1] + 0.0625 * e[2], e[1] + 0.25 * e[2],
                e[2]]
        env1 = [a + v for a, v in zip(env1, [2, 3, 1])]
    numpy.testing.assert_allclose(returns, numpy.array([env0, env1]).T,
                                  rtol=1e-6)


def test_save_load_reproduces_greedy_actions(tmp_path):
    set_random_seed(0)
    agent = _a2c(T.PolicyAndValue(), 2)
    T.train_batch(agent, 200, [T.make_env(seed=i) for i in range(2)])
    agent.save(str(tmp_path / 'a2c'))
    fresh = _a2c(T.PolicyAndValue(), 2)
    fresh.load(str(tmp_path / 'a2c'))
    obs = T.abc_observations()
    numpy.testing.assert_array_equal(T.greedy_actions(agent, obs),
                                     T.greedy_actions(fresh, obs))


def test_bad_input_is_reported_with_names():
    agent = _a2c(T.PolicyAndValue(), 2)
    good = numpy.zeros(T.OBS_SIZE, numpy.float32)
    with pytest.raises(ValueError, match=r'A2C\.batch_act_and_train: '
                       r'batch_obs has 3 observations.*num_processes=2'):
        agent.batch_act_and_train([good] * 3)
    agent.batch_act_and_train([good] * 2)
    with pytest.raises(ValueError, match=r"A2C\.batch_observe_and_train: "
                       r"batch_obs\[1\] has shape \(2,\), expected \(5,\)"):
        agent.batch_observe_and_train([good, numpy.zeros(2, numpy.float32)],
                                      [0, 0], [False] * 2, [False] * 2)
    with pytest.raises(TypeError, match='A2C: model must be'):
        A2C(None, None, 0.9, 1)
