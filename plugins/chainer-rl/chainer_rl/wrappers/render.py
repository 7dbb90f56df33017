"""Render after every reset and step."""
import gymnasium

from chainer_rl.wrappers._checks import check_env


class Render(gymnasium.Wrapper):
    """Call ``env.render()`` after each ``reset`` and ``step`` (make the env
    with a ``render_mode`` such as ``'human'``).

    Args:
        env (gymnasium.Env): env to wrap.
        **kwargs: passed to ``render`` (gymnasium envs take none; kept
            for environments with older render signatures).
    """

    def __init__(self, env, **kwargs):
        check_env('Render', env)
        super().__init__(env)
        self._kwargs = kwargs

    def reset(self, **kwargs):
        """Reset the env, then render."""
        ret = self.env.reset(**kwargs)
        self.env.render(**self._kwargs)
        return ret

    def step(self, action):
        """Step the env, then render."""
        ret = self.env.step(action)
        self.env.render(**self._kwargs)
        return ret
