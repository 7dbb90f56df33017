"""Let agents act in [-1, 1] whatever the env's Box bounds are."""
import gymnasium
import numpy as np

from chainer_rl.wrappers._checks import check_env


class NormalizeActionSpace(gymnasium.ActionWrapper):
    """Expose a Box action space of [-1, 1] per dimension and map actions
    linearly onto the env's bounds (-1 to ``low``, 1 to ``high``).

    Bounded Gaussian or tanh policies can then be shared across envs.
    Actions outside [-1, 1] are mapped by the same line (not clipped), as
    the env decides how to treat them.

    Args:
        env (gymnasium.Env): env with a bounded Box action space.
    """

    def __init__(self, env):
        check_env('NormalizeActionSpace', env)
        space = env.action_space
        if not isinstance(space, gymnasium.spaces.Box):
            raise TypeError('NormalizeActionSpace: the action space must be '
                            'a Box, got {}'.format(space))
        if not (np.all(np.isfinite(space.low))
                and np.all(np.isfinite(space.high))):
            raise ValueError('NormalizeActionSpace: the action space must '
                             'be bounded, got {}'.format(space))
        super().__init__(env)
        self.action_space = gymnasium.spaces.Box(
            low=-np.ones(space.shape, dtype=np.float32),
            high=np.ones(space.shape, dtype=np.float32), dtype=np.float32)

    def action(self, action):
        """Map ``action`` from [-1, 1] to the env's [low, high]."""
        space = self.env.action_space
        a = np.asarray(action, dtype=np.float64)
        if a.shape != space.shape:
            raise ValueError('NormalizeActionSpace.action: expected an action '
                             'of shape {}, got shape {}'.format(
                                 space.shape, a.shape))
        if not np.all(np.isfinite(a)):
            raise ValueError('NormalizeActionSpace.action: the action has '
                             'non-finite values: {}'.format(a))
        low = space.low.astype(np.float64)
        high = space.high.astype(np.float64)
        return (low + (a + 1.0) * 0.5 * (high - low)).astype(space.dtype)
