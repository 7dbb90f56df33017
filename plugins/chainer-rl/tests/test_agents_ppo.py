"""PPO: learning the ABC task (discrete on every device, continuous,
recurrent on a partially observable ABC), hand-computed advantages and
losses, truncation, save/load and bad input."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L

from chainer_rl import links
from chainer_rl.agent import AttributeSavingMixin
from chainer_rl.agents import _pg_common
from chainer_rl.agents.ppo import PPO
from chainer_rl.misc import set_random_seed
from chainer_rl.policies import SoftmaxPolicy

import policy_gradient_agents_testing as T


def _ppo(model, lr=3e-3, **kwargs):
    opt = chainer.optimizers.Adam(lr)
    opt.setup(model)
    params = dict(update_interval=128, minibatch_size=32, epochs=4,
                  entropy_coef=0.0, act_deterministically=True)
    params.update(kwargs)
    return PPO(model, opt, **params)


def test_learns_abc_on_every_device(device):
    set_random_seed(0)
    model = T.PolicyAndValue()
    model.to_device(device)
    agent = _ppo(model)
    T.train_single(agent, 2500, T.make_env(seed=0))
    assert T.greedy_returns(agent) == [1.0] * 10
    stats = dict(agent.get_statistics())
    assert stats['n_updates'] > 0


def test_learns_continuous_abc_with_vector_env():
    set_random_seed(1)
    agent = _ppo(T.PolicyAndValue(discrete=False), lr=1e-2,
                 update_interval=256, minibatch_size=64)
    env_list = [T.make_env(discrete=False, seed=i) for i in range(4)]
    T.train_batch(agent, 6000, env_list)
    assert T.greedy_returns(agent, discrete=False) == [1.0] * 10


def _recurrent_model(hidden=24):
    # obs -> Linear -> GRU -> (softmax policy, value)
    return links.StatelessRecurrentSequential(
        L.Linear(T.OBS_SIZE, hidden), F.tanh,
        L.NStepGRU(1, hidden, hidden, 0),
        links.Branched(SoftmaxPolicy(L.Linear(hidden, T.ABC_SIZE)),
                       L.Linear(hidden, 1)))


def test_recurrent_learns_partially_observable_abc():
    set_random_seed(0)
    agent = _ppo(_recurrent_model(), lr=1e-2, recurrent=True,
                 update_interval=256, minibatch_size=64, epochs=4,
                 max_recurrent_sequence_len=8)
    env_list = [T.make_env(partially_observable=True, seed=i)
                for i in range(4)]
    T.train_batch(agent, 6000, env_list)
    assert T.greedy_returns(agent, n_episodes=10,
                            partially_observable=True) == [1.0] * 10


def test_gae_by_hand():
    # Two envs, three steps. Env 0: a truncation at step 0 (bootstrapped
    # from the final observation's value 5) then a terminal step 2. Env 1:
    # no episode end, bootstrapped from 7 after the newest step.
    gamma, lambd = 0.5, 0.5
    rewards = numpy.array([[1., 0.], [0., 1.], [2., 0.]])
    values = numpy.array([[1., 2.], [3., 4.], [1., 2.]])
    next_values = numpy.array([[5., numpy.nan], [numpy.nan, numpy.nan],
                               [numpy.nan, 7.]])
    dones = numpy.array([[False, False], [False, False], [True, False]])
    resets = numpy.array([[True, False], [False, False], [False, False]])
    ends = _pg_common.episode_ends(dones, resets)
    adv, ret = _pg_common.gae(rewards, values, next_values, dones, ends,
                              gamma, lambd)
    # env 0
    d0 = 1 + 0.5 * 5 - 1           # truncated: bootstraps from 5
    d1 = 0 + 0.5 * 1 - 3           # next state is step 2's
    d2 = 2 - 1                     # terminal
    e0 = [d0, d1 + 0.25 * d2, d2]
    # env 1
    f2 = 0 + 0.5 * 7 - 2
    f1 = 1 + 0.5 * 2 - 4
    f0 = 0 + 0.5 * 4 - 2
    e1 = [f0 + 0.25 * f1 + 0.0625 * f2, f1 + 0.25 * f2, f2]
    numpy.testing.assert_allclose(adv, numpy.array([e0, e1]).T)
    numpy.testing.assert_allclose(ret, adv + values)


def test_lossfun_by_hand():
    agent = _ppo(T.PolicyAndValue(), clip_eps=0.2, clip_eps_vf=0.5,
                 value_func_coef=0.7, entropy_coef=0.1)
    f = numpy.float32
    log_probs = numpy.log(numpy.array([1.5, 0.5, 1.1, 0.9], f))
    log_probs_old = numpy.zeros(4, f)
    advs = numpy.array([1., 1., -1., -1.], f)
    vs_pred = numpy.array([1.0, 3.0, 0.0, 2.0], f)
    vs_pred_old = numpy.array([0.0, 2.0, 0.0, 2.4], f)
    vs_teacher = numpy.array([2.0, 1.0, 1.0, 2.0], f)
    entropy = numpy.array([0.3, 0.4, 0.5, 0.6], f)
    loss = agent._lossfun(
        chainer.Variable(entropy), chainer.Variable(vs_pred),
        chainer.Variable(log_probs), vs_pred_old, log_probs_old, advs,
        vs_teacher)
    # ratios 1.5, 0.5, 1.1, 0.9 clipped to [0.8, 1.2]:
    # min(r A, clip(r) A) = min(1.5, 1.2), min(0.5, 0.8), min(-1.1, -1.1),
    # min(-0.9, -0.9)
    policy = -numpy.mean([1.2, 0.5, -1.1, -0.9])
    # clipped predictions: 0.5, 2.5, 0.0, 2.0
    value = numpy.mean([max(1.0, 2.25), max(4.0, 2.25), max(1.0, 1.0),
                        max(0.0, 0.0)])
    expected = policy + 0.7 * value - 0.1 * numpy.mean(entropy)
    numpy.testing.assert_allclose(float(loss.array), expected, rtol=1e-5)
    stats = dict(agent.get_statistics())
    numpy.testing.assert_allclose(stats['average_policy_loss'], policy,
                                  rtol=1e-5)
    numpy.testing.assert_allclose(stats['average_value_loss'], value,
                                  rtol=1e-5)


def test_truncation_bootstraps_from_final_observation():
    w = [1.0, 2.0, 3.0, 4.0, 5.0]
    agent = _ppo(T.LinearV(w), update_interval=2, gamma=0.5, lambd=1.0,
                 standardize_advantages=False)
    captured = {}
    agent._update_flat = lambda rollout, targets: captured.update(targets)
    obs = T.abc_observations()
    agent.batch_act_and_train([obs[0]])
    # truncated in state 3: bootstraps from V(obs[3]) = 4
    agent.batch_observe_and_train([obs[3]], [1.0], [False], [True])
    agent.batch_act_and_train([obs[1]])
    agent.batch_observe_and_train([obs[2]], [0.0], [True], [False])
    numpy.testing.assert_allclose(captured['advs'].ravel(),
                                  [1 + 0.5 * 4 - 1, 0 - 2], rtol=1e-6)
    numpy.testing.assert_allclose(captured['vs_teacher'].ravel(),
                                  [1 + 0.5 * 4, 0], rtol=1e-6)


def test_save_load_reproduces_greedy_actions(tmp_path):
    set_random_seed(0)
    agent = _ppo(T.PolicyAndValue())
    T.train_single(agent, 300, T.make_env(seed=0))
    agent.save(str(tmp_path / 'ppo'))
    fresh = _ppo(T.PolicyAndValue())
    fresh.load(str(tmp_path / 'ppo'))
    obs = T.abc_observations()
    numpy.testing.assert_array_equal(T.greedy_actions(agent, obs),
                                     T.greedy_actions(fresh, obs))
    numpy.testing.assert_array_equal(agent.model.pi.l1.W.array,
                                     fresh.model.pi.l1.W.array)

    other = _OtherAgent()
    other.save(str(tmp_path / 'other'))
    with pytest.raises(ValueError, match=r'PPO\.load.*other.*_OtherAgent.*'
                       r'chainer_rl\.agents\.ppo\.PPO'):
        fresh.load(str(tmp_path / 'other'))


class _OtherAgent(AttributeSavingMixin):
    saved_attributes = ('model',)

    def __init__(self):
        self.model = T.PolicyAndValue()


def _adam_for(model):
    opt = chainer.optimizers.Adam()
    opt.setup(model)
    return opt


def test_bad_input_is_reported_with_names():
    agent = _ppo(T.PolicyAndValue())
    good = numpy.zeros(T.OBS_SIZE, numpy.float32)
    # a first observation the model cannot take
    with pytest.raises(ValueError, match=r'PPO\.batch_act_and_train.*\(3,\)'):
        agent.batch_act_and_train([numpy.zeros(3, numpy.float32)])
    agent.batch_act_and_train([good, good])
    with pytest.raises(ValueError, match=r'PPO\.batch_observe_and_train: '
                       r'batch_obs has 3 entries, expected 2'):
        agent.batch_observe_and_train([good] * 3, [0] * 3, [False] * 3,
                                      [False] * 3)
    with pytest.raises(ValueError, match=r'PPO\.batch_observe_and_train: '
                       r'batch_reward has 1 entries'):
        agent.batch_observe_and_train([good] * 2, [0], [False] * 2,
                                      [False] * 2)
    with pytest.raises(ValueError, match=r"PPO\.batch_act: batch_obs\[1\] "
                       r"has shape \(4,\), expected \(5,\)"):
        agent.batch_act([good, numpy.zeros(4, numpy.float32)])
    with pytest.raises(ValueError, match=r'PPO\.batch_act: batch_obs\[0\] '
                       r'has shape \(\), expected \(5,\)'):
        agent.batch_act(good)       # one observation instead of a batch
    with pytest.raises(TypeError, match='PPO: model must be'):
        PPO(lambda x: x, None)
    with pytest.raises(ValueError, match='PPO: optimizer must be set up'):
        PPO(T.PolicyAndValue(), chainer.optimizers.Adam())
    with pytest.raises(ValueError, match=r'PPO: gpu=99 asks for device'):
        model = T.PolicyAndValue()
        PPO(model, _adam_for(model), gpu=99)


def test_statistics_names():
    agent = _ppo(T.PolicyAndValue())
    names = [name for name, _ in agent.get_statistics()]
    assert names == ['average_value', 'average_entropy',
                     'average_value_loss', 'average_policy_loss',
                     'n_updates', 'explained_variance']
