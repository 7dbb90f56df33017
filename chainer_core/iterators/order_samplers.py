"""Order samplers: the order in which an iterator visits examples."""
import numpy


class OrderSampler:
    """``sampler(current_order, current_position)`` returns the next epoch's
    order (a permutation of indices) or None for sequential order."""

    def __call__(self, current_order, current_position):
        raise NotImplementedError


class ShuffleOrderSampler(OrderSampler):
    """A fresh random permutation each epoch.

    Args:
        random_state (numpy.random.RandomState): the generator (default: a
            new one seeded from the OS).
    """

    def __init__(self, random_state=None):
        if random_state is None:
            random_state = numpy.random.random.__self__
        self._random = random_state

    def __call__(self, current_order, current_position):
        return self._random.permutation(len(current_order))
