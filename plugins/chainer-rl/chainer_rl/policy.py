"""Interface of policies."""
from abc import ABCMeta
from abc import abstractmethod


class Policy(metaclass=ABCMeta):
    """A policy: called with a batch of states, it returns a
    :class:`~chainer_rl.distribution.Distribution` of actions, one per
    state."""

    @abstractmethod
    def __call__(self, state):
        """Action distributions of the states."""
