"""Random action replacement, to make evaluation stochastic."""
import gymnasium
import numpy as np

from chainer_rl.wrappers._checks import check_env


class RandomizeAction(gymnasium.ActionWrapper):
    """Replace the agent's action by a uniformly random one with
    probability ``random_fraction`` (e.g. epsilon = 0.05 for Atari
    evaluation). For exploration while training use an explorer instead.

    Only Discrete action spaces are supported. The wrapper's generator is
    seeded by ``seed(seed)`` or ``reset(seed=seed)``.

    Args:
        env (gymnasium.Env): env with a Discrete action space.
        random_fraction (float): probability in [0, 1].
    """

    def __init__(self, env, random_fraction):
        check_env('RandomizeAction', env)
        if not isinstance(env.action_space, gymnasium.spaces.Discrete):
            raise TypeError('RandomizeAction: the action space must be '
                            'Discrete, got {}'.format(env.action_space))
        if isinstance(random_fraction, bool) or not isinstance(
                random_fraction, (int, float, np.floating)) or \
                not 0 <= random_fraction <= 1:
            raise ValueError('RandomizeAction: random_fraction must be a '
                             'number in [0, 1], got {!r}'.format(
                                 random_fraction))
        super().__init__(env)
        self._random_fraction = float(random_fraction)
        self._rng = np.random.RandomState()

    def action(self, action):
        """Return ``action`` or, with probability ``random_fraction``, a
        random action."""
        space = self.env.action_space
        try:
            ok = space.contains(np.int64(action))
        except (TypeError, ValueError):
            ok = False
        if not ok:
            raise ValueError('RandomizeAction.action: {!r} is not an action '
                             'of {}'.format(action, space))
        if self._rng.rand() < self._random_fraction:
            return int(space.start + self._rng.randint(space.n))
        return action

    def seed(self, seed=None):
        """Seed the replacement draws."""
        self._rng.seed(seed)

    def reset(self, **kwargs):
        """Reset the env; a ``seed`` keyword also seeds this wrapper."""
        if kwargs.get('seed') is not None:
            self.seed(kwargs['seed'])
        return self.env.reset(**kwargs)
