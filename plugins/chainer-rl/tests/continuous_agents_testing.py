"""Helpers of the continuous-action agents' tests (DDPG, TD3, SAC): tiny
policies and Q-functions, training loops over the continuous ABC task and
the checks every agent goes through."""
import numpy

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L

from chainer_rl import distribution
from chainer_rl import envs
from chainer_rl import policies
from chainer_rl import q_functions
from chainer_rl.misc import set_random_seed

import rl_agent_testing
# The continuous agents' tests reach the shared loops through this module.
from rl_agent_testing import train_batch
from rl_agent_testing import train_single  # noqa: F401


ABC_SIZE = 2
HIDDEN = 32


def make_env(time_limit=None):
    """Continuous ABC: the action is a vector of logits of the ABC_SIZE
    inner actions; deterministic, so a greedy policy that learned the task
    succeeds every time."""
    return envs.ABC(size=ABC_SIZE, discrete=False, episodic=True,
                    deterministic=True, time_limit=time_limit)


def sizes():
    env = make_env()
    return env.observation_space.shape[0], env.action_space.shape[0]


def deterministic_policy(device=None):
    obs_size, action_size = sizes()
    policy = policies.FCDeterministicPolicy(
        obs_size, 1, HIDDEN, action_size, min_action=-1.0, max_action=1.0)
    if device is not None:
        policy.to_device(device)
    return policy


def sa_q_function(device=None):
    obs_size, action_size = sizes()
    q = q_functions.FCSAQFunction(obs_size, action_size, HIDDEN, 1)
    if device is not None:
        q.to_device(device)
    return q


def twin_critics(policy, q_funcs, device):
    """Two fresh Q-functions unless ``q_funcs`` are given; moves them and
    ``policy`` to ``device`` (when given) and returns the Q-functions."""
    q1, q2 = q_funcs if q_funcs is not None else (sa_q_function(),
                                                  sa_q_function())
    if device is not None:
        for link in (policy, q1, q2):
            link.to_device(device)
    return q1, q2


class SquashedGaussianPolicy(chainer.Chain):
    """An MLP giving the mean and log standard deviation of a tanh-squashed
    Gaussian (SAC's policy)."""

    def __init__(self, obs_size, action_size, hidden=HIDDEN):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(obs_size, hidden)
            self.l2 = L.Linear(hidden, 2 * action_size)

    def forward(self, x):
        mean, log_std = F.split_axis(self.l2(F.relu(self.l1(x))), 2, axis=1)
        log_std = F.clip(log_std, -20.0, 2.0)
        return distribution.SquashedGaussianDistribution(
            mean, F.exp(2 * log_std))


def squashed_gaussian_policy(device=None):
    policy = SquashedGaussianPolicy(*sizes())
    if device is not None:
        policy.to_device(device)
    return policy


class LinearPolicy(chainer.Chain):
    """``a = x W^T`` (no bias): actions computable by hand."""

    def __init__(self, obs_size, action_size):
        super().__init__()
        with self.init_scope():
            self.l = L.Linear(obs_size, action_size, nobias=True)

    def forward(self, x):
        return distribution.ContinuousDeterministicDistribution(self.l(x))


class LinearSquashedPolicy(chainer.Chain):
    """Mean ``x W^T``, a fixed standard deviation: log densities computable
    by hand."""

    def __init__(self, obs_size, action_size, std):
        super().__init__()
        self.std = std
        with self.init_scope():
            self.l = L.Linear(obs_size, action_size, nobias=True)

    def forward(self, x):
        mean = self.l(x)
        var = mean * 0 + self.std ** 2
        return distribution.SquashedGaussianDistribution(mean, var)


class LinearQ(chainer.Chain):
    """``Q(s, a) = s . w_s + a . w_a`` (no bias)."""

    def __init__(self, obs_size, action_size):
        super().__init__()
        with self.init_scope():
            self.l = L.Linear(obs_size + action_size, 1, nobias=True)

    def forward(self, x, a):
        return self.l(F.concat((x, a), axis=1))


def set_weight(link, value):
    """Overwrite ``link.l.W`` with the host array ``value``."""
    param = link.l.W
    chainer.backend.copyto(param.array, param.device.send(
        numpy.asarray(value, dtype=numpy.float32)))


def seed(value=0):
    set_random_seed(value)


def uniform_burnin(size=ABC_SIZE):
    return lambda: numpy.random.uniform(-1, 1, size).astype(numpy.float32)


def train_batch_pfrl(agent, vec_env, steps):
    """PFRL's batch loop: batch_act/batch_observe in training mode."""
    obs = vec_env.reset()
    with agent.train_mode():
        for _ in range(steps):
            actions = agent.batch_act(obs)
            obs, rewards, dones, infos = vec_env.step(actions)
            resets = [info.get('needs_reset', False) for info in infos]
            agent.batch_observe(obs, rewards, dones, resets)
            mask = [not (d or r) for d, r in zip(dones, resets)]
            obs = vec_env.reset(mask)


def greedy_returns(agent, env, n_episodes=4):
    """Returns of greedy episodes; every action must be a host array of the
    action space's dtype and shape."""
    def check_action(action):
        assert isinstance(action, numpy.ndarray)
        assert action.dtype == env.action_space.dtype
        assert action.shape == env.action_space.shape

    return rl_agent_testing.greedy_returns(agent, env, n_episodes,
                                           check_action=check_action)


def abc_observations():
    n = make_env().n_dim_obs
    return [numpy.eye(n, dtype=numpy.float32)[k] for k in range(n)]


def assert_solves_abc(agent, n_episodes=4):
    returns = greedy_returns(agent, make_env(), n_episodes)
    assert returns == [1.0] * n_episodes, returns


def greedy_action_batch(agent):
    """Greedy actions of every ABC observation, as one host array."""
    return numpy.stack(agent.batch_act(abc_observations()))


def assert_load_reproduces(agent, make_fresh, path):
    """Save ``agent``, load it into ``make_fresh()`` (which acts otherwise
    before the load) and check that both then act alike; returns the loaded
    agent."""
    expected = greedy_action_batch(agent)
    agent.save(path)
    seed(1)
    fresh = make_fresh()
    assert not numpy.array_equal(greedy_action_batch(fresh), expected)
    fresh.load(path)
    numpy.testing.assert_array_equal(greedy_action_batch(fresh), expected)
    return fresh


def train_on_two_envs(agent, loop=train_batch, steps=600):
    """Run a batch training ``loop`` over two seeded ABC envs."""
    vec_env = envs.SerialVectorEnv([make_env() for _ in range(2)])
    vec_env.seed(0)
    loop(agent, vec_env, steps)


def experiences(rows):
    """Replay-buffer items from ``(s, a, r, s', terminal)`` rows."""
    return [[dict(state=numpy.asarray(s, dtype=numpy.float32),
                  action=numpy.asarray(a, dtype=numpy.float32),
                  reward=float(r),
                  next_state=numpy.asarray(s2, dtype=numpy.float32),
                  next_action=None, is_state_terminal=bool(t))]
            for s, a, r, s2, t in rows]
