"""ACER: Retrace targets, truncated importance weights with bias correction
and the trust region checked by hand on tiny rollouts; learning the ABC
task (discrete and continuous, synchronous and with two processes);
save/load, recurrent models, devices and argument errors."""
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
from chainer_rl.agents import acer
from chainer_rl.distribution import SoftmaxDistribution
from chainer_rl.misc import set_random_seed

import rl_agent_testing


SIZE = 3
OBS_SIZE = SIZE + 2


def discrete_model(hidden=20):
    return acer.ACERSeparateModel(
        pi=policies.FCSoftmaxPolicy(OBS_SIZE, SIZE, n_hidden_layers=1,
                                    n_hidden_channels=hidden),
        q=q_functions.FCStateQFunctionWithDiscreteAction(
            OBS_SIZE, SIZE, n_hidden_channels=hidden, n_hidden_layers=1))


def sdn_model(hidden=20):
    bound = np.ones(SIZE, dtype=np.float32)
    return acer.ACERSDNSeparateModel(
        pi=policies.FCGaussianPolicy(OBS_SIZE, SIZE, n_hidden_layers=1,
                                     n_hidden_channels=hidden,
                                     bound_mean=True, min_action=-bound,
                                     max_action=bound),
        v=v_functions.FCVFunction(OBS_SIZE, n_hidden_layers=1,
                                  n_hidden_channels=hidden),
        adv=q_functions.FCSAQFunction(OBS_SIZE, SIZE, n_hidden_channels=hidden,
                                      n_hidden_layers=1))


def make_agent(model, lr=1e-2, **kwargs):
    opt = chainer.optimizers.Adam(lr)
    opt.setup(model)
    options = dict(t_max=5, gamma=0.9, beta=1e-2, replay_start_size=50,
                   act_deterministically=True,
                   replay_buffer=replay_buffers.EpisodicReplayBuffer(10 ** 4))
    options.update(kwargs)
    return acer.ACER(model, opt, **options)


def abc(discrete=True, **kwargs):
    return envs.ABC(size=SIZE, discrete=discrete, deterministic=True,
                    **kwargs)


def train(agent, env, steps):
    rl_agent_testing.train_single(agent, env, steps, stop_at_end=False)


def greedy_returns(agent, env, episodes=5):
    return rl_agent_testing.greedy_returns(agent, env, episodes,
                                           max_steps=SIZE + 2)


def one_hot(i, n=4):
    x = np.zeros(n, dtype=np.float32)
    x[i] = 1
    return x


def softmax(z):
    z = np.asarray(z, dtype=np.float64)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


# ----------------------------------------------------------------------
# by hand

def test_retrace_targets_by_hand():
    rewards = [1.0, 0.0, 2.0]
    q_taken = [0.5, 0.2, 1.0]
    values = [0.4, 0.3, 0.8]
    rho = [3.0, 0.5, 1.0]
    q_ret, q_opc = acer.compute_retrace_targets(
        rewards, q_taken, values, rho, gamma=0.9, bootstrap=1.5)
    # t=2: 2 + 0.9 * 1.5 = 3.35, carried back as 1 * (3.35 - 1.0) + 0.8
    # t=1: 0 + 0.9 * 3.15 = 2.835, carried back as 0.5 * (2.835 - 0.2) + 0.3
    # t=0: 1 + 0.9 * 1.6175
    np.testing.assert_allclose(q_ret, [2.45575, 2.835, 3.35])
    # Q_opc carries Q_opc - Q + V back without weights.
    np.testing.assert_allclose(q_opc, [1 + 0.9 * 2.935, 2.835, 3.35])
    # Continuous actions truncate rho ** (1 / action_dim): 0.25 ** 0.5.
    q_ret2, _ = acer.compute_retrace_targets(
        rewards, q_taken, values, [3.0, 0.25, 1.0], gamma=0.9,
        bootstrap=1.5, exponent=0.5)
    np.testing.assert_allclose(q_ret2, q_ret)
    # A terminal end bootstraps nothing.
    q_ret3, _ = acer.compute_retrace_targets([1.0], [0.0], [0.0], [1.0],
                                             gamma=0.9, bootstrap=0.0)
    np.testing.assert_allclose(q_ret3, [1.0])


def test_importance_weights_by_hand():
    pi = SoftmaxDistribution(np.array([[0.0, 1.0, 2.0], [1.0, 1.0, 1.0]],
                                      dtype=np.float32))
    mu = SoftmaxDistribution(np.array([[2.0, 1.0, 0.0], [0.0, 0.0, 3.0]],
                                      dtype=np.float32))
    p, m = softmax(pi.logits.array), softmax(mu.logits.array)
    np.testing.assert_allclose(acer.compute_full_importance(pi, mu), p / m,
                               rtol=1e-5)
    x = np.array([2, 0], dtype=np.int32)
    np.testing.assert_allclose(acer.compute_importance(pi, mu, x),
                               [p[0, 2] / m[0, 2], p[1, 0] / m[1, 0]],
                               rtol=1e-5)


def linear_acer(W_pi, W_q, **kwargs):
    """ACER over a linear softmax policy and a linear Q-function of one-hot
    observations: the logits and Q-values of state s are column s of the
    weights, so their gradients are the weights' gradients."""
    pi = policies.SoftmaxPolicy(L.Linear(4, 3, nobias=True,
                                         initialW=W_pi.astype(np.float32)))
    q = q_functions.SingleModelStateQFunctionWithDiscreteAction(
        L.Linear(4, 3, nobias=True, initialW=W_q.astype(np.float32)))
    model = acer.ACERSeparateModel(pi, q)
    opt = chainer.optimizers.SGD(0.1)
    opt.setup(model)
    options = dict(t_max=3, gamma=0.9, replay_buffer=None, beta=0.0,
                   pi_loss_coef=1.0, Q_loss_coef=1.0)
    options.update(kwargs)
    return acer.ACER(model, opt, **options)


def test_off_policy_loss_and_gradients_by_hand():
    rng = np.random.RandomState(0)
    W_pi = rng.normal(size=(3, 4))
    W_q = rng.normal(size=(3, 4))
    mu_logits = rng.normal(size=(3, 3)).astype(np.float32)
    c, gamma = 1.2, 0.9
    agent = linear_acer(W_pi, W_q, use_trust_region=False,
                        truncation_threshold=c, gamma=gamma)
    states, actions, rewards = [0, 1, 2], [2, 0, 1], [0.5, 0.0, 1.0]
    mus = [SoftmaxDistribution(mu_logits[t:t + 1]) for t in range(3)]
    loss, _ = agent.compute_loss([one_hot(s) for s in states], actions,
                                 rewards, one_hot(3), mus=mus)

    logits = W_pi.T.astype(np.float32).astype(np.float64)
    q = W_q.T.astype(np.float32).astype(np.float64)
    pi = softmax(logits)
    mu = softmax(mu_logits)
    v = (pi * q).sum(axis=1)
    R = v[3]
    T = 3
    # Retrace, written out step by step.
    q_ret = np.zeros(T)
    ret = R
    for t in reversed(range(T)):
        a = actions[t]
        ret = rewards[t] + gamma * ret
        q_ret[t] = ret
        rho_t = pi[t, a] / mu[t, a]
        ret = min(1.0, rho_t) * (ret - q[t, a]) + v[t]
    expected_loss = 0.0
    grad_logits = np.zeros((T, 3))
    grad_q = np.zeros((T, 3))
    for t in range(T):
        a = actions[t]
        rho_t = pi[t, a] / mu[t, a]
        adv = q_ret[t] - v[t]
        onehot = np.eye(3)[a]
        # Truncated importance sampling term.
        expected_loss += -min(c, rho_t) * np.log(pi[t, a]) * adv
        grad_logits[t] += -min(c, rho_t) * adv * (onehot - pi[t])
        # Bias correction over every action.
        w = np.maximum(0, 1 - c / (pi[t] / mu[t])) * pi[t] * (q[t] - v[t])
        expected_loss += -(w * np.log(pi[t])).sum()
        grad_logits[t] += -(w - pi[t] * w.sum())
        # Q regression on the Retrace target.
        expected_loss += (q_ret[t] - q[t, a]) ** 2 / 2
        grad_q[t, a] = -(q_ret[t] - q[t, a])
    # The truncation and the correction are both active in this rollout.
    rho_all = pi[:T] / mu
    assert (rho_all > c).any() and (rho_all < c).any()
    np.testing.assert_allclose(float(loss.array), expected_loss / T,
                               rtol=1e-4)
    agent.model.cleargrads()
    loss.backward()
    W_pi_grad = agent.model.pi.model.W.grad
    W_q_grad = agent.model.q.model.W.grad
    np.testing.assert_allclose(W_pi_grad[:, :3], grad_logits.T / T,
                               rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(W_q_grad[:, :3], grad_q.T / T, rtol=1e-4,
                               atol=1e-6)
    # State 3 only bootstraps: no gradient reaches it.
    assert not W_pi_grad[:, 3].any() and not W_q_grad[:, 3].any()


@pytest.mark.parametrize('delta', [0.01, 100.0])
def test_trust_region_projects_the_policy_gradient_by_hand(delta):
    W_pi = np.zeros((3, 4))
    W_pi[:, 0] = [0.0, 0.5, -0.5]
    agent = linear_acer(W_pi, np.zeros((3, 4)), use_trust_region=True,
                        trust_region_delta=delta, average_kl_decay=0.0)
    W_avg = np.zeros((3, 4), dtype=np.float32)
    W_avg[:, 0] = [0.0, -0.5, 0.5]
    agent.shared_average_model.pi.model.W.array[...] = W_avg
    loss, _ = agent.compute_loss([one_hot(0)], [1], [1.0], None)
    agent.model.cleargrads()
    loss.backward()

    pi = softmax(W_pi[:, 0])
    p_avg = softmax(W_avg[:, 0])
    adv = 1.0 - 0.0          # Q is zero, so V is too; the episode ends
    g_hat = adv * (np.eye(3)[1] - pi)   # ascent direction of the objective
    k = pi - p_avg                      # gradient of KL(avg || pi)
    factor = max(0.0, (k @ g_hat - delta) / (k @ k))
    z = g_hat - factor * k
    if delta < 1:
        assert factor > 0
    else:
        assert factor == 0
    np.testing.assert_allclose(agent.model.pi.model.W.grad[:, 0], -z,
                               rtol=1e-4, atol=1e-7)
    kl = (p_avg * (np.log(p_avg) - np.log(pi))).sum()
    np.testing.assert_allclose(agent.get_statistics()[2][1], kl, rtol=1e-4)


def test_sdn_off_policy_loss_has_gradients():
    set_random_seed(0)
    agent = make_agent(sdn_model(8), replay_buffer=None,
                       truncation_threshold=0.5)
    env = abc(discrete=False, episodic=False)
    obs, _ = env.reset(seed=0)
    mus, observations, actions = [], [], []
    for t in range(3):
        action = agent.act_and_train(obs, 0.0)
        observations.append(obs)
        actions.append(action)
        mus.append(agent._seg_mus[-1])
        obs, _, _, _, _ = env.step(action)
    loss, _ = agent.compute_loss(observations, actions, [0.0, 0.0, 1.0], obs,
                                 mus=mus)
    agent.model.cleargrads()
    loss.backward()
    for name, param in agent.model.namedparams():
        assert param.grad is not None and np.isfinite(param.grad).all(), name
    assert np.isfinite(float(loss.array))


# ----------------------------------------------------------------------
# learning

def test_learns_abc_discrete():
    set_random_seed(0)
    agent = make_agent(discrete_model())
    train(agent, abc(), 800)
    assert greedy_returns(agent, abc()) == [1.0] * 5
    names = [name for name, _ in agent.get_statistics()]
    assert names == ['average_value', 'average_entropy', 'average_kl']
    assert agent.get_statistics()[0][1] > 0.1


@pytest.mark.slow
def test_learns_abc_continuous():
    set_random_seed(0)
    agent = make_agent(sdn_model(), use_Q_opc=True)
    train(agent, abc(discrete=False), 1200)
    assert greedy_returns(agent, abc(discrete=False)) == [1.0] * 5


@pytest.mark.slow
def test_learns_abc_with_two_processes(tmp_path):
    set_random_seed(0)
    agent = make_agent(discrete_model(), n_times_replay=1)
    trained = experiments.train_agent_async(
        outdir=str(tmp_path), processes=2,
        make_env=lambda process_idx, test: abc(), agent=agent, steps=2000,
        eval_interval=400, eval_n_steps=None, eval_n_episodes=5,
        max_episode_len=10, successful_score=1)
    assert greedy_returns(trained, abc()) == [1.0] * 5


# ----------------------------------------------------------------------
# agent protocol

def test_save_load_reproduces_greedy_actions(tmp_path):
    set_random_seed(0)
    agent = make_agent(discrete_model(), replay_start_size=10)
    train(agent, abc(), 150)
    agent.save(str(tmp_path / 'acer'))
    other = make_agent(discrete_model())
    observations = [one_hot(i, OBS_SIZE) for i in range(OBS_SIZE)]
    other.load(str(tmp_path / 'acer'))
    np.testing.assert_array_equal(other.batch_act(observations),
                                  agent.batch_act(observations))
    for (name, a), (_, b) in zip(sorted(agent.shared_model.namedparams()),
                                 sorted(other.model.namedparams())):
        np.testing.assert_array_equal(a.array, b.array, err_msg=name)
    for (_, a), (_, b) in zip(sorted(other.model.namedparams()),
                              sorted(other.shared_model.namedparams())):
        np.testing.assert_array_equal(a.array, b.array)


def test_load_refuses_a_folder_of_another_agent(tmp_path):
    q = q_functions.FCStateQFunctionWithDiscreteAction(OBS_SIZE, SIZE, 8, 1)
    opt = chainer.optimizers.Adam()
    opt.setup(q)
    dqn = agents.DQN(q, opt, replay_buffers.ReplayBuffer(100), 0.9,
                     explorers.Greedy(), replay_start_size=10)
    dqn.save(str(tmp_path / 'dqn'))
    agent = make_agent(discrete_model())
    with pytest.raises(ValueError, match=r'ACER\.load: .*dqn\.DQN but is '
                                         r'being loaded into .*acer\.ACER'):
        agent.load(str(tmp_path / 'dqn'))


def test_wrong_observation_shape_is_reported():
    set_random_seed(0)
    agent = make_agent(discrete_model())
    env = abc()
    obs, _ = env.reset(seed=0)
    agent.act_and_train(obs, 0.0)
    bad = np.zeros(OBS_SIZE + 1, dtype=np.float32)
    with pytest.raises(ValueError,
                       match=r'ACER\.batch_observe_and_train: batch_obs\[0\] '
                             r'has shape \(6,\), expected \(5,\)'):
        agent.act_and_train(bad, 0.0)
    with pytest.raises(ValueError, match=r'ACER\.batch_act: batch_obs\[0\] '
                                         r'has shape \(6,\), expected \(5,\)'):
        agent.act(bad)
    fresh = make_agent(discrete_model())
    with pytest.raises((ValueError, TypeError),
                       match=r'ACER\.batch_act: the model rejected '
                             r'observations of shape \(6,\)'):
        fresh.act(bad)


def test_trains_in_one_env_at_a_time():
    agent = make_agent(discrete_model())
    obs = one_hot(0, OBS_SIZE)
    with pytest.raises(ValueError, match='ACER.batch_act_and_train: '
                                         'batch_obs has 2 observations'):
        agent.batch_act_and_train([obs, obs])
    # Evaluation takes any number of envs.
    assert agent.batch_act([obs, obs, obs]).shape == (3,)


def test_rejects_bad_arguments():
    model = discrete_model()
    opt = chainer.optimizers.Adam()
    with pytest.raises(ValueError, match='ACER: optimizer'):
        acer.ACER(model, opt, t_max=5, gamma=0.9, replay_buffer=None)
    opt.setup(model)
    with pytest.raises(ValueError, match='ACER: t_max'):
        acer.ACER(model, opt, t_max=0, gamma=0.9, replay_buffer=None)
    with pytest.raises(ValueError, match='ACER: gamma'):
        acer.ACER(model, opt, t_max=5, gamma=1.5, replay_buffer=None)
    with pytest.raises(TypeError, match='ACER: replay_buffer'):
        acer.ACER(model, opt, t_max=5, gamma=0.9, replay_buffer=[])
    lazy = acer.ACERSeparateModel(
        policies.SoftmaxPolicy(L.Linear(None, SIZE)),
        q_functions.SingleModelStateQFunctionWithDiscreteAction(
            L.Linear(None, SIZE)))
    opt2 = chainer.optimizers.Adam()
    opt2.setup(lazy)
    with pytest.raises(ValueError, match='uninitialized parameters'):
        acer.ACER(lazy, opt2, t_max=5, gamma=0.9, replay_buffer=None)


@pytest.mark.parametrize('n_online_update,disable', [(1, False), (2, False),
                                                     (1, True)])
def test_online_updates_per_segment(n_online_update, disable):
    set_random_seed(0)
    agent = make_agent(discrete_model(), t_max=2, replay_buffer=None,
                       n_online_update=n_online_update,
                       disable_online_update=disable)
    env = abc(episodic=False)
    obs, _ = env.reset(seed=0)
    for _ in range(6):
        obs, _, _, _, _ = env.step(agent.act_and_train(obs, 0.0))
    # Six steps: the update after steps 2 and 4 have run.
    assert agent.n_updates == (0 if disable else 2 * n_online_update)


def test_replay_buffer_holds_episodes_with_behaviour_distributions():
    set_random_seed(0)
    agent = make_agent(discrete_model(), replay_start_size=10 ** 6)
    train(agent, abc(), 30)
    buffer = agent.replay_buffer
    assert buffer.n_episodes > 0
    episode = buffer.episodic_memory[0]
    assert episode[-1]['is_state_terminal']
    for tr in episode:
        assert isinstance(tr['mu'], SoftmaxDistribution)
        assert tr['mu'].logits.shape == (1, SIZE)


def test_prioritized_replay_gets_priorities_from_retrace_errors():
    set_random_seed(0)
    buffer = replay_buffers.PrioritizedEpisodicReplayBuffer(10 ** 4)
    agent = make_agent(discrete_model(), replay_buffer=buffer,
                       replay_start_size=1, n_times_replay=2)
    train(agent, abc(episodic=False, time_limit=3), 9)
    # Three episodes; each end is followed by two replay updates once an
    # episode is stored, each sample waiting for its priority.
    assert buffer.n_episodes == 3
    assert agent.n_updates == 3 + 2 * 2


def test_trains_on_every_device(device):
    set_random_seed(0)
    for model in (discrete_model(8), sdn_model(8)):
        model.to_device(device)
        before = {n: np.array(chainer.get_device('@numpy').send(p.array))
                  for n, p in model.namedparams()}
        agent = make_agent(model, t_max=3, replay_start_size=5,
                           truncation_threshold=1.0)
        discrete = isinstance(model, acer.ACERSeparateModel)
        train(agent, abc(discrete=discrete), 30)
        changed = [n for n, p in agent.shared_model.namedparams()
                   if not np.array_equal(
                       chainer.get_device('@numpy').send(p.array),
                       before[n])]
        assert changed
        assert all(np.isfinite(v) for _, v in agent.get_statistics())
        assert agent.average_kl > 0


def recurrent_model():
    shared = links.Sequence(L.Linear(OBS_SIZE, 10), F.relu, L.LSTM(10, 10))
    return acer.ACERSharedModel(
        shared, policies.FCSoftmaxPolicy(10, SIZE),
        q_functions.FCStateQFunctionWithDiscreteAction(10, SIZE, 10, 0))


def test_recurrent_model_keeps_training_and_evaluation_states_apart():
    set_random_seed(0)
    agent = make_agent(recurrent_model(), replay_start_size=5)
    assert agent.recurrent
    env = abc(partially_observable=True)
    train(agent, env, 40)
    obs = [one_hot(0, OBS_SIZE)] * 2
    with agent.eval_mode():
        first = agent.batch_act(obs)
        agent.batch_observe(obs, [0, 0], [True, True], [False, False])
        assert agent._eval_state is None
        again = agent.batch_act(obs)
    # After both episodes ended the states start over: same greedy action.
    np.testing.assert_array_equal(first, again)
    # Acting advances the evaluation state only.
    train_state = agent._train_state
    agent.act(obs[0])
    assert agent._train_state is train_state
    assert agent._eval_state is not None
    agent.stop_episode()
    assert agent._eval_state is None
