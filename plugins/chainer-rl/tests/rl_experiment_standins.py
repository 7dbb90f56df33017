"""Small agents and environments for the experiment-runner tests."""
import json
import os

import gymnasium
import numpy as np


class ChainEnv(gymnasium.Env):
    """Observation: the step count t (as a 1-element float32 array).
    Reward: the action taken. Terminates after ``length`` steps."""

    metadata = {'render_modes': []}

    def __init__(self, length=5):
        self.length = length
        self.observation_space = gymnasium.spaces.Box(0, 1000, (1,),
                                                      np.float32)
        self.action_space = gymnasium.spaces.Discrete(10)
        self.n_resets = 0
        self.t = 0

    def _obs(self):
        return np.array([self.t], dtype=np.float32)

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        self.t = 0
        self.n_resets += 1
        return self._obs(), {}

    def step(self, action):
        self.t += 1
        return (self._obs(), float(action), self.t >= self.length, False,
                {'t': self.t})


class RecordingAgent(object):
    """ChainerRL single-env agent protocol: training actions are 0, greedy
    actions are ``1 + trained_steps // 10`` (so evaluation scores rise as
    training goes on). Every call is recorded."""

    def __init__(self, fail_at=None):
        self.t = -1
        self.trained_steps = 0
        self.calls = []
        self.fail_at = fail_at

    def act_and_train(self, obs, reward):
        self.trained_steps += 1
        if self.trained_steps == self.fail_at:
            raise RuntimeError('planned failure')
        self.calls.append(('act_and_train', float(obs[0]), reward))
        return 0

    def act(self, obs):
        self.calls.append(('act', float(obs[0])))
        return 1 + self.trained_steps // 10

    def stop_episode_and_train(self, obs, reward, done=False):
        self.calls.append(('stop_episode_and_train', float(obs[0]), done))

    def stop_episode(self):
        self.calls.append(('stop_episode',))

    def get_statistics(self):
        return [('trained_steps', self.trained_steps), ('constant', 0.5)]

    def save(self, dirname):
        os.makedirs(dirname, exist_ok=True)
        with open(os.path.join(dirname, 'agent.json'), 'w') as f:
            json.dump({'trained_steps': self.trained_steps}, f)

    def load(self, dirname):
        with open(os.path.join(dirname, 'agent.json')) as f:
            self.trained_steps = json.load(f)['trained_steps']


def saved_steps(dirname):
    """The ``trained_steps`` a RecordingAgent saved in ``dirname``."""
    with open(os.path.join(dirname, 'agent.json')) as f:
        return json.load(f)['trained_steps']


class RecordingBatchAgent(RecordingAgent):
    """ChainerRL batch protocol on top of RecordingAgent."""

    def batch_act_and_train(self, batch_obs):
        self.trained_steps += len(batch_obs)
        self.calls.append(('batch_act_and_train',
                           [float(o[0]) for o in batch_obs]))
        return [0] * len(batch_obs)

    def batch_observe_and_train(self, batch_obs, batch_reward, batch_done,
                                batch_reset):
        self.calls.append(('batch_observe_and_train',
                           [bool(d) for d in batch_done],
                           [bool(r) for r in batch_reset]))

    def batch_act(self, batch_obs):
        return [1 + self.trained_steps // 10] * len(batch_obs)

    def batch_observe(self, batch_obs, batch_reward, batch_done,
                      batch_reset):
        self.calls.append(('batch_observe', [bool(d) for d in batch_done],
                           [bool(r) for r in batch_reset]))


def read_scores_lines(outdir):
    """scores.txt as a header list and rows of strings."""
    with open(os.path.join(outdir, 'scores.txt')) as f:
        lines = [line.rstrip('\n').split('\t') for line in f]
    return lines[0], lines[1:]
