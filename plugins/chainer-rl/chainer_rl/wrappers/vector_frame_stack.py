"""Frame stacking for vector envs, done in the main process."""
import collections

import gymnasium
import numpy as np

from chainer_rl.envs import VectorEnv
from chainer_rl.wrappers._checks import check_positive_int
from chainer_rl.wrappers.atari_wrappers import LazyFrames


class VectorEnvWrapper(VectorEnv):
    """Base of vector-env wrappers: forwards everything to ``env``."""

    def __init__(self, env):
        for name in ('step', 'reset', 'num_envs'):
            if not hasattr(env, name):
                raise TypeError('{}: env must be a vector env (with step, '
                                'reset and num_envs), got {}'.format(
                                    type(self).__name__, type(env).__name__))
        self.env = env
        self.num_envs = env.num_envs
        self.action_space = env.action_space
        self.observation_space = env.observation_space

    def __getattr__(self, name):
        if name.startswith('_') or name == 'env':
            raise AttributeError(name)
        return getattr(self.env, name)

    def step(self, actions):
        """Step the wrapped vector env."""
        return self.env.step(actions)

    def reset(self, mask=None, return_info=False):
        """Reset the wrapped vector env."""
        if return_info:
            return self.env.reset(mask=mask, return_info=True)
        return self.env.reset(mask=mask)

    def seed(self, seeds=None):
        """Seed the wrapped vector env."""
        return self.env.seed(seeds)

    def close(self):
        """Close the wrapped vector env."""
        return self.env.close()

    @property
    def unwrapped(self):
        """The innermost vector env."""
        return self.env.unwrapped


class VectorFrameStack(VectorEnvWrapper):
    """Stack the last ``k`` observations of each env of a vector env.

    Stacking in the main process returns :class:`LazyFrames` that share
    frames between steps, which would be lost (or impossible) if each
    worker process of a MultiprocessVectorEnv stacked and sent them.

    Args:
        env (VectorEnv): vector env with Box observations.
        k (int): number of frames.
        stack_axis (int): axis of the observations to concatenate along.
    """

    def __init__(self, env, k, stack_axis=0):
        super().__init__(env)
        self.k = check_positive_int('VectorFrameStack', 'k', k)
        space = env.observation_space
        if not isinstance(space, gymnasium.spaces.Box):
            raise TypeError('VectorFrameStack: observations must be a Box '
                            'space, got {}'.format(space))
        ndim = len(space.shape)
        if isinstance(stack_axis, bool) or not isinstance(stack_axis, int) \
                or not -ndim <= stack_axis < ndim:
            raise ValueError('VectorFrameStack: stack_axis must be an axis '
                             'of the {}-d observations, got {!r}'.format(
                                 ndim, stack_axis))
        self.stack_axis = stack_axis
        self._shape = space.shape
        self.frames = [collections.deque([], maxlen=self.k)
                       for _ in range(self.num_envs)]
        self.observation_space = gymnasium.spaces.Box(
            low=np.repeat(space.low, self.k, axis=stack_axis),
            high=np.repeat(space.high, self.k, axis=stack_axis),
            dtype=space.dtype)

    def _check(self, obs, i, where):
        shape = np.shape(obs)
        if shape != self._shape:
            raise ValueError('VectorFrameStack.{}: env {} returned an '
                             'observation of shape {}, expected {}'.format(
                                 where, i, shape, self._shape))

    def reset(self, mask=None, return_info=False):
        """Reset the unmasked envs and fill their stacks with ``k`` copies
        of the first observation."""
        result = self.env.reset(mask=mask, return_info=return_info) \
            if return_info else self.env.reset(mask=mask)
        batch_obs, infos = result if return_info else (result, None)
        if mask is None:
            mask = [False] * self.num_envs
        for i, (skip, frames, obs) in enumerate(
                zip(mask, self.frames, batch_obs)):
            if not skip:
                self._check(obs, i, 'reset')
                for _ in range(self.k):
                    frames.append(obs)
        stacked = self._observations()
        return (stacked, infos) if return_info else stacked

    def step(self, actions):
        """Step and push each env's new observation."""
        batch_obs, rewards, dones, infos = self.env.step(actions)
        for i, (frames, obs) in enumerate(zip(self.frames, batch_obs)):
            if len(frames) != self.k:
                raise RuntimeError('VectorFrameStack.step: env {} was never '
                                   'reset'.format(i))
            self._check(obs, i, 'step')
            frames.append(obs)
        return self._observations(), rewards, dones, infos

    def _observations(self):
        return [LazyFrames(list(frames), stack_axis=self.stack_axis)
                if len(frames) == self.k else None for frames in self.frames]
