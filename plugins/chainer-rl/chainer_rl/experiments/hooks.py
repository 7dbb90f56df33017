"""Callables run by the training loops after every step."""
import abc

import numpy as np

from chainer_rl.experiments._env import check_int


class StepHook(object, metaclass=abc.ABCMeta):
    """Interface of step hooks. Any callable taking ``(env, agent, step)``
    works as a hook; subclassing only documents the intent."""

    @abc.abstractmethod
    def __call__(self, env, agent, step):
        """Run after step ``step`` (counted from 1) of training."""


class LinearInterpolationHook(StepHook):
    """Set a value interpolated linearly from ``start_value`` at step 1 to
    ``stop_value`` at ``total_steps`` (constant afterwards), e.g. to decay
    a learning rate::

        def lr_setter(env, agent, value):
            agent.optimizer.lr = value
        hook = LinearInterpolationHook(10 ** 6, 1e-3, 0, lr_setter)

    Args:
        total_steps (int): step at which ``stop_value`` is reached.
        start_value (float): value at step 1.
        stop_value (float): value from ``total_steps`` on.
        setter (callable): ``(env, agent, value) -> None``.
    """

    def __init__(self, total_steps, start_value, stop_value, setter):
        self.total_steps = check_int('LinearInterpolationHook',
                                     'total_steps', total_steps, 1)
        if not callable(setter):
            raise TypeError('LinearInterpolationHook: setter must be a '
                            'callable (env, agent, value), got {!r}'
                            .format(setter))
        self.start_value = start_value
        self.stop_value = stop_value
        self.setter = setter

    def __call__(self, env, agent, step):
        """Set the value for ``step``."""
        value = np.interp(step, [1, self.total_steps],
                          [self.start_value, self.stop_value])
        self.setter(env, agent, value)
