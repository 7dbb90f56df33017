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
        random_state (numpy.random.RandomState): the generator. By default
            a private one seeded from NumPy's global generator, so that
            ``numpy.random.seed`` fixes the order and the generator's state
            can travel in snapshots without touching the global one.
    """

    def __init__(self, random_state=None):
        if random_state is None:
            random_state = numpy.random.RandomState(
                numpy.random.randint(2 ** 31))
        self._random = random_state

    def __call__(self, current_order, current_position):
        return self._random.permutation(len(current_order))

    def serialize(self, serializer):
        """Save or load the generator's state (exact resume)."""
        from chainer_core.serializer import Deserializer
        name, keys, pos, has_gauss, cached = self._random.get_state()
        if isinstance(serializer, Deserializer):
            try:
                keys = serializer('keys', keys.copy())
            except KeyError:
                return
            pos = serializer('pos', int(pos))
            has_gauss = serializer('has_gauss', int(has_gauss))
            cached = serializer('cached_gaussian', float(cached))
            self._random.set_state((name, keys, pos, has_gauss, cached))
        else:
            serializer('keys', keys)
            serializer('pos', int(pos))
            serializer('has_gauss', int(has_gauss))
            serializer('cached_gaussian', float(cached))
