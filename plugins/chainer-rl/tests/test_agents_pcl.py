"""PCL: the path-consistency residuals and their gradients checked by hand;
learning the ABC task synchronously (train_agent_with_evaluation), with
two processes (train_agent_async) and with a recurrent model on the
partially observable variant; save/load, devices and argument errors."""
import os

import numpy as np
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L

from chainer_rl import agents
from chainer_rl import envs
from chainer_rl import experiments
from chainer_rl import explorers
from chainer_rl import links
from chainer_rl import policies
from chainer_rl import q_functions
from chainer_rl import replay_buffers
from chainer_rl import v_functions
from chainer_rl.agents import pcl
from chainer_rl.misc import set_random_seed

import rl_agent_testing


SIZE = 3
OBS_SIZE = SIZE + 2


def separate_model(hidden=20):
    return pcl.PCLSeparateModel(
        pi=policies.FCSoftmaxPolicy(OBS_SIZE, SIZE, n_hidden_layers=1,
                                    n_hidden_channels=hidden),
        v=v_functions.FCVFunction(OBS_SIZE, n_hidden_layers=1,
                                  n_hidden_channels=hidden))


def make_agent(model, lr=1e-2, **kwargs):
    opt = chainer.optimizers.Adam(lr)
    opt.setup(model)
    options = dict(gamma=0.9, tau=1e-2, replay_start_size=50,
                   act_deterministically=True,
                   replay_buffer=replay_buffers.EpisodicReplayBuffer(10 ** 4))
    options.update(kwargs)
    return pcl.PCL(model, opt, **options)


def abc(**kwargs):
    return envs.ABC(size=SIZE, discrete=True, deterministic=True, **kwargs)


def train(agent, env, steps):
    rl_agent_testing.train_single(agent, env, steps, stop_at_end=False)


def greedy_returns(agent, env, episodes=6):
    return rl_agent_testing.greedy_returns(agent, env, episodes,
                                           max_steps=SIZE + 2)


def one_hot(i):
    x = np.zeros(OBS_SIZE, dtype=np.float32)
    x[i] = 1
    return x


# ----------------------------------------------------------------------
# by hand

def variable(values):
    return chainer.Variable(np.asarray(values, dtype=np.float32))


@pytest.mark.parametrize('backprop_future_values', [True, False])
def test_path_consistency_loss_and_gradients_by_hand(backprop_future_values):
    gamma, tau, pi_coef, v_coef = 0.9, 0.1, 1.0, 0.5
    agent = make_agent(separate_model(4), gamma=gamma, tau=tau,
                       rollout_len=2, pi_loss_coef=pi_coef,
                       v_loss_coef=v_coef,
                       backprop_future_values=backprop_future_values)
    rewards = [1.0, 0.0, 2.0]
    values = variable([0.5, 0.4, 0.3])
    next_values = variable([0.4, 0.3, 0.0])     # the last step terminates
    log_probs = variable([-0.1, -0.2, -0.3])
    loss = agent.compute_loss(rewards, values, next_values, log_probs)

    # C_t = -V(s_t) + gamma^d V(s_{t+d}) + sum_i gamma^i (r - tau log pi)
    # t=0, d=2: -0.5 + 0.81 * 0.3 + (1 + 0.9 * 0) - 0.1 * (-0.1 - 0.18)
    # t=1, d=2: -0.4 + 0.81 * 0.0 + (0 + 0.9 * 2) - 0.1 * (-0.2 - 0.27)
    # t=2, d=1: -0.3 + 0.9 * 0.0 + 2 - 0.1 * (-0.3)
    residuals = np.array([0.771, 1.447, 1.73])
    T = 3
    expected = ((residuals ** 2).sum() / 2 / tau * pi_coef
                + (residuals ** 2).sum() / 2 * v_coef) / T
    np.testing.assert_allclose(float(loss.array), expected, rtol=1e-5)

    loss.backward()
    # The policy's part reaches the log-probabilities of each window ...
    g_log_probs = -pi_coef / T * np.array([
        residuals[0],
        residuals[0] * gamma + residuals[1],
        residuals[1] * gamma + residuals[2]])
    np.testing.assert_allclose(log_probs.grad, g_log_probs, rtol=1e-5)
    # ... the value's part V(s_t) and, optionally, V(s_{t+d}).
    np.testing.assert_allclose(values.grad, -v_coef / T * residuals,
                               rtol=1e-5)
    g_next = v_coef / T * np.array([
        0.0, residuals[0] * gamma ** 2,
        residuals[1] * gamma ** 2 + residuals[2] * gamma])
    if backprop_future_values:
        np.testing.assert_allclose(next_values.grad, g_next, rtol=1e-5,
                                   atol=1e-8)
    else:
        assert next_values.grad is None or not next_values.grad.any()


def test_online_segment_loss_uses_the_segment_and_its_bootstrap():
    """The loss of an on-policy segment is compute_loss on the model's own
    log-probabilities and values, the value after the segment bootstrapped
    unless it ended in a terminal state."""
    set_random_seed(0)
    agent = make_agent(separate_model(4), rollout_len=2)
    obs = [one_hot(i) for i in range(4)]
    for terminal in (False, True):
        seq = dict(obs=obs, actions=[0, 1, 2], rewards=[0.0, 0.5, 1.0],
                   terminal=np.array([False, False, terminal]), state=None)
        loss, = agent._sequence_losses([seq])
        x = np.stack(obs)
        distrib, v = agent.model.pi_and_v(x)
        v = F.reshape(v, (4,))
        next_values = v[1:] * np.array([1, 1, 0 if terminal else 1],
                                       dtype=np.float32)
        expected = agent.compute_loss(
            [0.0, 0.5, 1.0], v[:3], next_values,
            distrib.log_prob(np.array([0, 1, 2, 2], np.int32))[:3])
        np.testing.assert_allclose(float(loss.array),
                                   float(expected.array), rtol=1e-6)


# ----------------------------------------------------------------------
# learning

def test_learns_abc_with_train_agent_with_evaluation(tmp_path):
    set_random_seed(0)
    agent = make_agent(separate_model())
    experiments.train_agent_with_evaluation(
        agent=agent, env=abc(), steps=600, eval_n_steps=None,
        eval_n_episodes=5, eval_interval=200, outdir=str(tmp_path),
        eval_env=abc(), train_max_episode_len=10)
    assert greedy_returns(agent, abc()) == [1.0] * 6
    names = [name for name, _ in agent.get_statistics()]
    assert names == ['average_loss', 'average_value', 'average_entropy']
    assert os.path.exists(os.path.join(str(tmp_path), 'scores.txt'))


@pytest.mark.slow
@pytest.mark.parametrize('train_async', [True, False])
def test_learns_abc_with_two_processes(tmp_path, train_async):
    set_random_seed(0)
    agent = make_agent(separate_model(), t_max=5, train_async=train_async)
    assert agent.shared_attributes == (
        ('shared_model', 'optimizer') if train_async
        else ('model', 'optimizer'))
    trained = experiments.train_agent_async(
        outdir=str(tmp_path), processes=2,
        make_env=lambda process_idx, test: abc(), agent=agent, steps=2000,
        eval_interval=400, eval_n_steps=None, eval_n_episodes=5,
        max_episode_len=10, successful_score=1)
    assert greedy_returns(trained, abc()) == [1.0] * 6


def recurrent_model():
    shared = links.Sequence(L.Linear(OBS_SIZE, 20), F.relu, L.LSTM(20, 20))
    return pcl.PCLSharedModel(shared, policies.FCSoftmaxPolicy(20, SIZE),
                              v_functions.FCVFunction(20))


@pytest.mark.slow
def test_recurrent_model_learns_partially_observable_abc():
    set_random_seed(0)
    agent = make_agent(recurrent_model())
    assert agent.recurrent
    train(agent, abc(partially_observable=True), 1000)
    # Episodes alternate between the shifted and unshifted observations;
    # only a policy remembering the first one succeeds in both.
    assert greedy_returns(agent, abc(partially_observable=True)) == \
        [1.0] * 6


# ----------------------------------------------------------------------
# agent protocol

def test_save_load_reproduces_greedy_actions(tmp_path):
    set_random_seed(0)
    agent = make_agent(separate_model(), replay_start_size=10)
    train(agent, abc(), 150)
    agent.save(str(tmp_path / 'pcl'))
    other = make_agent(separate_model())
    other.load(str(tmp_path / 'pcl'))
    observations = [one_hot(i) for i in range(OBS_SIZE)]
    np.testing.assert_array_equal(other.batch_act(observations),
                                  agent.batch_act(observations))
    for (name, a), (_, b) in zip(sorted(agent.model.namedparams()),
                                 sorted(other.model.namedparams())):
        np.testing.assert_array_equal(a.array, b.array, err_msg=name)


def test_save_load_with_train_async_fills_both_models(tmp_path):
    set_random_seed(0)
    agent = make_agent(separate_model(), t_max=3, train_async=True)
    train(agent, abc(), 60)
    agent.save(str(tmp_path / 'pcl'))
    other = make_agent(separate_model(), t_max=3, train_async=True)
    other.load(str(tmp_path / 'pcl'))
    for (_, a), (_, b), (_, c) in zip(
            sorted(agent.shared_model.namedparams()),
            sorted(other.model.namedparams()),
            sorted(other.shared_model.namedparams())):
        np.testing.assert_array_equal(a.array, b.array)
        np.testing.assert_array_equal(a.array, c.array)


def test_load_refuses_a_folder_of_another_agent(tmp_path):
    acer_model = agents.ACERSeparateModel(
        policies.FCSoftmaxPolicy(OBS_SIZE, SIZE),
        q_functions.FCStateQFunctionWithDiscreteAction(OBS_SIZE, SIZE, 8, 1))
    opt = chainer.optimizers.Adam()
    opt.setup(acer_model)
    agents.ACER(acer_model, opt, t_max=5, gamma=0.9,
                replay_buffer=None).save(str(tmp_path / 'acer'))
    agent = make_agent(separate_model())
    with pytest.raises(ValueError, match=r'PCL\.load: .*acer\.ACER but is '
                                         r'being loaded into .*pcl\.PCL'):
        agent.load(str(tmp_path / 'acer'))


def test_wrong_observation_shape_is_reported():
    set_random_seed(0)
    agent = make_agent(separate_model())
    obs, _ = abc().reset(seed=0)
    agent.act_and_train(obs, 0.0)
    bad = np.zeros(OBS_SIZE + 1, dtype=np.float32)
    with pytest.raises(ValueError,
                       match=r'PCL\.batch_observe_and_train: batch_obs\[0\] '
                             r'has shape \(6,\), expected \(5,\)'):
        agent.act_and_train(bad, 0.0)
    with pytest.raises(ValueError, match=r'PCL\.batch_act: batch_obs\[1\] '
                                         r'has shape \(6,\), expected \(5,\)'):
        agent.batch_act([obs, bad])
    fresh = make_agent(separate_model())
    with pytest.raises((ValueError, TypeError),
                       match=r'PCL\.batch_act: the model rejected '
                             r'observations of shape \(6,\)'):
        fresh.act(bad)


def test_rejects_bad_arguments():
    model = separate_model()
    opt = chainer.optimizers.Adam()
    with pytest.raises(ValueError, match='PCL: optimizer'):
        pcl.PCL(model, opt)
    opt.setup(model)
    with pytest.raises(ValueError, match='PCL: t_max'):
        pcl.PCL(model, opt, t_max=0)
    with pytest.raises(ValueError, match='PCL: tau'):
        pcl.PCL(model, opt, tau=0.0)
    with pytest.raises(ValueError, match='PCL: rollout_len'):
        pcl.PCL(model, opt, rollout_len=0)
    with pytest.raises(TypeError, match='PCL: model'):
        pcl.PCL(object(), opt)
    agent = pcl.PCL(model, opt)
    with pytest.raises(ValueError, match='PCL.batch_act_and_train: '
                                         'batch_obs has 2 observations'):
        agent.batch_act_and_train([one_hot(0), one_hot(0)])
    with pytest.raises(RuntimeError, match='PCL.batch_observe_and_train: '
                                           'there is no action'):
        agent.batch_observe_and_train([one_hot(0)], [0.0], [False],
                                      [False])


@pytest.mark.parametrize('t_max,batchsize,updates', [
    (None, 1, 2),     # two episodes
    (2, 1, 3),        # segments of 2, 1 (episode end), 2
    (2, 2, 1),        # the same three segments, two per update
])
def test_online_updates(t_max, batchsize, updates):
    set_random_seed(0)
    agent = make_agent(separate_model(), t_max=t_max, batchsize=batchsize,
                       replay_buffer=None)
    env = abc(episodic=False, time_limit=3)
    train(agent, env, 5)
    agent.stop_episode_and_train(*env.step(0)[:2])
    assert agent.n_updates == updates


def test_replay_updates_after_each_online_update():
    set_random_seed(0)
    buffer = replay_buffers.PrioritizedEpisodicReplayBuffer(10 ** 4)
    agent = make_agent(separate_model(), t_max=None, replay_buffer=buffer,
                       replay_start_size=3, n_times_replay=2, batchsize=2)
    env = abc(episodic=False, time_limit=3)
    train(agent, env, 12)
    # Episodes of 3 steps, two per online update (after episodes 2 and 4),
    # each followed by 2 replay updates of 2 episodes once the buffer has
    # them: after episode 2 it holds only episode 1 (an episode is stored
    # after the updates its end triggers), after episode 4 three.
    assert buffer.n_episodes == 4
    assert agent.n_updates == 1 + 1 + 2


def test_disable_online_update_learns_from_replay_only():
    set_random_seed(0)
    agent = make_agent(separate_model(), t_max=None, replay_start_size=1,
                       disable_online_update=True)
    env = abc(episodic=False, time_limit=3)
    train(agent, env, 9)
    # Replay after each episode once the first one is stored.
    assert agent.n_updates == 2


def test_explorer_chooses_the_training_actions():
    set_random_seed(0)
    explorer = explorers.ConstantEpsilonGreedy(1.0, lambda: 2)
    agent = make_agent(separate_model(), explorer=explorer,
                       replay_buffer=None)
    obs = one_hot(0)
    assert [int(agent.act_and_train(obs, 0.0)) for _ in range(5)] == [2] * 5


def test_trains_on_every_device(device):
    set_random_seed(0)
    model = separate_model(8)
    model.to_device(device)
    before = {n: np.array(chainer.get_device('@numpy').send(p.array))
              for n, p in model.namedparams()}
    agent = make_agent(model, t_max=3, batchsize=2, replay_start_size=5)
    train(agent, abc(), 30)
    changed = [n for n, p in agent.model.namedparams()
               if not np.array_equal(
                   chainer.get_device('@numpy').send(p.array), before[n])]
    assert changed
    assert all(np.isfinite(v) for _, v in agent.get_statistics())
    assert agent.batch_act([one_hot(0), one_hot(1)]).shape == (2,)


def test_recurrent_evaluation_state_is_separate_and_reset():
    set_random_seed(0)
    agent = make_agent(recurrent_model(), replay_start_size=5)
    train(agent, abc(partially_observable=True), 30)
    obs = [one_hot(0)] * 2
    with agent.eval_mode():
        first = agent.batch_act(obs)
        agent.batch_observe(obs, [0, 0], [False, True], [False, False])
        assert agent._eval_state is not None
        agent.batch_observe(obs, [0, 0], [True, False], [False, False])
        again = agent.batch_act(obs)
    np.testing.assert_array_equal(first, again)
    train_state = agent._train_state
    agent.act(obs[0])
    agent.stop_episode()
    assert agent._train_state is train_state and agent._eval_state is None
