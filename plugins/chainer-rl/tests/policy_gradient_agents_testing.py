"""Shared pieces of the policy-gradient agents' tests: tiny models,
training loops over the ABC task (single env and vector env) and the
greedy check."""
import numpy

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L

from chainer_rl import envs
from chainer_rl.distribution import GaussianDistribution
from chainer_rl.distribution import SoftmaxDistribution
from chainer_rl.envs.vector_env import SerialVectorEnv
from chainer_rl.recurrent import RecurrentChainMixin

import rl_agent_testing

ABC_SIZE = 3
OBS_SIZE = ABC_SIZE + 2


def make_env(discrete=True, partially_observable=False, deterministic=False,
             time_limit=None, seed=None):
    env = envs.ABC(size=ABC_SIZE, discrete=discrete,
                   partially_observable=partially_observable,
                   deterministic=deterministic, time_limit=time_limit)
    if seed is not None:
        env.reset(seed=seed)
    return env


def _head(out, discrete, log_std):
    if discrete:
        return SoftmaxDistribution(out)
    var = F.broadcast_to(F.exp(2 * log_std), out.shape)
    return GaussianDistribution(out, var)


class Policy(chainer.Chain):
    """obs -> action distribution (softmax, or Gaussian with a learned
    state-independent variance)."""

    def __init__(self, discrete=True, hidden=32, n_in=OBS_SIZE):
        super().__init__()
        self.discrete = discrete
        with self.init_scope():
            self.l1 = L.Linear(n_in, hidden)
            self.l2 = L.Linear(hidden, ABC_SIZE)
            if not discrete:
                self.log_std = chainer.Parameter(
                    numpy.zeros(ABC_SIZE, dtype=numpy.float32))

    def forward(self, x):
        return _head(self.l2(F.tanh(self.l1(x))), self.discrete,
                     getattr(self, 'log_std', None))


class VFunction(chainer.Chain):
    """obs -> value of shape (batch, 1)."""

    def __init__(self, hidden=32, n_in=OBS_SIZE):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(n_in, hidden)
            self.l2 = L.Linear(hidden, 1)

    def forward(self, x):
        return self.l2(F.tanh(self.l1(x)))


class PolicyAndValue(chainer.Chain):
    """obs -> (distribution, value): PPO's and PFRL's A2C model."""

    def __init__(self, discrete=True, hidden=32):
        super().__init__()
        with self.init_scope():
            self.pi = Policy(discrete, hidden)
            self.v = VFunction(hidden)

    def forward(self, x):
        return self.pi(x), self.v(x)


class LinearV(chainer.Chain):
    """Uniform policy; value = w . obs (set by hand)."""

    def __init__(self, w):
        super().__init__()
        with self.init_scope():
            self.v = L.Linear(OBS_SIZE, 1, nobias=True,
                              initialW=numpy.asarray([w], numpy.float32))
            self.logits = L.Linear(OBS_SIZE, ABC_SIZE, nobias=True,
                                   initialW=0.0)

    def forward(self, x):
        return SoftmaxDistribution(self.logits(x)), self.v(x)


class RecurrentPolicy(chainer.Chain, RecurrentChainMixin):
    """Softmax policy behind an LSTM (for partially observable ABC)."""

    def __init__(self, hidden=20):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(OBS_SIZE, hidden)
            self.lstm = L.LSTM(hidden, hidden)
            self.l2 = L.Linear(hidden, ABC_SIZE)

    def forward(self, x):
        return SoftmaxDistribution(self.l2(self.lstm(F.tanh(self.l1(x)))))


def train_single(agent, steps, env):
    """ChainerRL's single-env loop; returns the episodes' returns."""
    return rl_agent_testing.train_single(agent, env, steps, env_seed=None,
                                         stop_at_end=False)


def train_batch(agent, steps, env_list):
    """ChainerRL's batch loop over a SerialVectorEnv; ``steps`` counts the
    steps of all envs."""
    venv = SerialVectorEnv(env_list)
    obs = venv.reset()
    n = len(env_list)
    for _ in range(steps // n):
        actions = agent.batch_act_and_train(obs)
        obs, rewards, dones, infos = venv.step(actions)
        resets = [info.get('needs_reset', False) for info in infos]
        agent.batch_observe_and_train(obs, rewards, dones, resets)
        obs = venv.reset(numpy.logical_not(numpy.logical_or(dones,
                                                             resets)))


def greedy_returns(agent, n_episodes=10, **env_kwargs):
    """Returns of evaluation episodes on a deterministic ABC."""
    env = make_env(deterministic=True, **env_kwargs)
    returns = []
    for _ in range(n_episodes):
        obs, _ = env.reset()
        done, total = False, 0.0
        while not done:
            obs, reward, terminated, truncated, _ = env.step(agent.act(obs))
            total += reward
            done = terminated or truncated
        agent.stop_episode()
        returns.append(total)
    return returns


def greedy_actions(agent, observations):
    """Evaluation actions of a list of observations (one batch)."""
    return numpy.asarray(agent.batch_act(observations))


def abc_observations():
    """The observations of the ABC task (one-hot states)."""
    return [numpy.eye(OBS_SIZE, dtype=numpy.float32)[i]
            for i in range(OBS_SIZE)]
