"""Shared pieces of the value-based agents' tests: tiny Q-functions, training
loops over the ABC task (single env and vector env) and the checks every
agent goes through."""
import numpy

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L

from chainer_rl import envs
from chainer_rl import explorers
from chainer_rl.action_value import DiscreteActionValue
from chainer_rl.misc import set_random_seed

# The value agents' tests reach the shared loops through this module.
from rl_agent_testing import greedy_returns
from rl_agent_testing import train_batch  # noqa: F401
from rl_agent_testing import train_single  # noqa: F401


ABC_SIZE = 3


def make_env(partially_observable=False, time_limit=None):
    return envs.ABC(size=ABC_SIZE, discrete=True, episodic=True,
                    deterministic=True,
                    partially_observable=partially_observable,
                    time_limit=time_limit)


class TinyQ(chainer.Chain):
    """Two-layer MLP returning DiscreteActionValue."""

    def __init__(self, n_in, n_actions, hidden=20):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(n_in, hidden)
            self.l2 = L.Linear(hidden, n_actions)

    def forward(self, x):
        return DiscreteActionValue(self.l2(F.relu(self.l1(x))))


class LSTMQ(chainer.Chain):
    """A Q-function keeping its LSTM state inside (stateful)."""

    def __init__(self, n_in, n_actions, hidden=20):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(n_in, hidden)
            self.lstm = L.LSTM(hidden, hidden)
            self.l2 = L.Linear(hidden, n_actions)

    def forward(self, x):
        return DiscreteActionValue(self.l2(self.lstm(F.relu(self.l1(x)))))


class LinearQ(chainer.Chain):
    """Q(s) = W s: with W set by hand, targets can be computed by hand."""

    def __init__(self, n_in, n_actions):
        super().__init__()
        with self.init_scope():
            self.l = L.Linear(n_in, n_actions, nobias=True)

    def forward(self, x):
        return DiscreteActionValue(self.l(x))


def seed(value=0):
    set_random_seed(value)


def random_action_func(n=ABC_SIZE):
    return lambda: numpy.random.randint(n)


def explorer(decay_steps=500):
    """Epsilon 1 -> 0.1: the reward of ABC (1 in 27 random episodes) is
    found early whatever the initial greedy policy."""
    return explorers.LinearDecayEpsilonGreedy(1.0, 0.1, decay_steps,
                                              random_action_func())


def greedy_actions(agent, observations):
    """Greedy actions of single observations (evaluation episodes of one
    step each, so recurrent states start afresh)."""
    actions = []
    for obs in observations:
        actions.append(int(agent.act(obs)))
        agent.stop_episode()
    return actions


def abc_observations(env):
    obs = []
    for k in range(env.n_dim_obs):
        o = numpy.zeros(env.n_dim_obs, dtype=numpy.float32)
        o[k] = 1
        obs.append(o)
    return obs


def assert_load_reproduces(agent, make_fresh, path, observations=None):
    """Save ``agent``, load it into ``make_fresh()`` and check that both take
    the same greedy actions (on every ABC observation by default); returns
    those actions."""
    if observations is None:
        observations = abc_observations(make_env())
    before = greedy_actions(agent, observations)
    agent.save(path)
    fresh = make_fresh()
    fresh.load(path)
    assert greedy_actions(fresh, observations) == before
    return before


def assert_solves_abc(agent, partially_observable=False, n_episodes=4):
    returns = greedy_returns(
        agent, make_env(partially_observable=partially_observable),
        n_episodes)
    assert returns == [1.0] * n_episodes, returns
