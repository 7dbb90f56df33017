"""Reward scaling."""
import gymnasium
import numpy as np

from chainer_rl.wrappers._checks import check_env


class ScaleReward(gymnasium.RewardWrapper):
    """Multiply rewards by ``scale`` (the unscaled one stays available as
    ``original_reward`` for logging true returns).

    Args:
        env (gymnasium.Env): env to wrap.
        scale (float): reward multiplier.
    """

    def __init__(self, env, scale):
        check_env('ScaleReward', env)
        if isinstance(scale, bool) or not isinstance(
                scale, (int, float, np.integer, np.floating)) or \
                not np.isfinite(scale):
            raise ValueError('ScaleReward: scale must be a finite number, '
                             'got {!r}'.format(scale))
        super().__init__(env)
        self.scale = scale
        self.original_reward = None

    def reward(self, reward):
        """Return ``scale * reward``."""
        self.original_reward = reward
        return self.scale * reward
