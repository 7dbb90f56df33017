"""Time limit that ends an episode without making its last state terminal."""
import gymnasium

from chainer_rl.wrappers._checks import check_env
from chainer_rl.wrappers._checks import check_positive_int


class ContinuingTimeLimit(gymnasium.Wrapper):
    """After ``max_episode_steps`` steps, report ``truncated=True`` and
    ``info['needs_reset'] = True`` while ``terminated`` stays as the env
    says, so learners keep bootstrapping from the last state.

    This is gymnasium's truncation; the ``needs_reset`` key is what
    ChainerRL's loops (and the vector envs here) look for.

    Args:
        env (gymnasium.Env): env to wrap.
        max_episode_steps (int): steps after which the env needs a reset.
    """

    def __init__(self, env, max_episode_steps):
        check_env('ContinuingTimeLimit', env)
        super().__init__(env)
        self._max_episode_steps = check_positive_int(
            'ContinuingTimeLimit', 'max_episode_steps', max_episode_steps)
        self._elapsed_steps = None

    def step(self, action):
        """Step the env, marking truncation once the limit is reached."""
        if self._elapsed_steps is None:
            raise RuntimeError('ContinuingTimeLimit.step: call reset() '
                               'before step()')
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._elapsed_steps += 1
        if self._elapsed_steps >= self._max_episode_steps:
            info = dict(info)
            info['needs_reset'] = True
            truncated = True
        return obs, reward, terminated, truncated, info

    def reset(self, **kwargs):
        """Reset the env and the step count."""
        self._elapsed_steps = 0
        return self.env.reset(**kwargs)
