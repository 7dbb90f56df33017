"""Interface of state-value functions."""
from abc import ABCMeta
from abc import abstractmethod


class VFunction(metaclass=ABCMeta):
    """A V-function: called with a batch of states, it returns their
    values, shape ``(batch_size, 1)``."""

    @abstractmethod
    def __call__(self, x):
        """Values of the states ``x``."""
