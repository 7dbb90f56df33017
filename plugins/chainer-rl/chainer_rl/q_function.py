"""Interfaces of Q-functions."""
from abc import ABCMeta
from abc import abstractmethod


class StateQFunction(metaclass=ABCMeta):
    """A Q-function of states: called with a batch of states, it returns
    an :class:`~chainer_rl.action_value.ActionValue` covering every
    action."""

    @abstractmethod
    def __call__(self, x):
        """Action values of the states ``x``."""


class StateActionQFunction(metaclass=ABCMeta):
    """A Q-function of states and actions: called with a batch of states
    and one action per state, it returns their Q-values, shape
    ``(batch_size, 1)``."""

    @abstractmethod
    def __call__(self, x, a):
        """Q-values of the pairs ``(x, a)``."""
