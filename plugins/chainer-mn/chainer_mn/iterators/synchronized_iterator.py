"""create_synchronized_iterator: the same batches on every process."""
import numpy

from chainer_core.iterators import ShuffleOrderSampler


def create_synchronized_iterator(actual_iterator, communicator):
    """Make ``actual_iterator`` yield the same batches on every process.

    For model parallelism, where each process holds the same dataset and
    every process of a step must see the same examples: the shuffling
    generator of the iterator is replaced by one seeded identically on
    every process (the seed chosen on rank 0) and the iterator restarts.
    Iterators that do not shuffle already agree.

    Args:
        actual_iterator: an iterator with an ``order_sampler`` attribute
            (SerialIterator, MultiprocessIterator, MultithreadIterator).
        communicator: a chainer_mn communicator.

    Returns:
        ``actual_iterator``, synchronized.

    Raises:
        ValueError: (on every process) the datasets differ in length.
        TypeError: the iterator has no ``order_sampler``.
    """
    if not hasattr(actual_iterator, 'order_sampler'):
        raise TypeError(
            'create_synchronized_iterator: {} has no order_sampler, so its '
            'order cannot be synchronized'.format(
                type(actual_iterator).__name__))
    lengths = communicator.allgather_obj(len(actual_iterator.dataset))
    for r, n in enumerate(lengths):
        if n != lengths[0]:
            raise ValueError(
                'create_synchronized_iterator: the dataset has {} examples '
                'on rank 0 but {} on rank {}'.format(lengths[0], n, r))
    seed = None
    if communicator.rank == 0:
        seed = int(numpy.random.randint(0, 2 ** 31))
    seed = communicator.bcast_obj(seed)
    if actual_iterator.order_sampler is not None:
        actual_iterator.order_sampler = ShuffleOrderSampler(
            numpy.random.RandomState(seed))
        actual_iterator.reset()
    return actual_iterator
