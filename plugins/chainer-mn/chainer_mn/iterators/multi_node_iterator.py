"""create_multi_node_iterator: one process iterates, all get the batches."""
from chainer_core.dataset.iterator import Iterator

_EPOCH_KEYS = ('epoch', 'is_new_epoch', 'epoch_detail',
               'previous_epoch_detail', 'current_position')


class _MasterIterator(Iterator):
    """Takes batches from the actual iterator and broadcasts them."""

    def __init__(self, actual_iterator, communicator, rank_master):
        self.actual_iterator = actual_iterator
        self.communicator = communicator
        self.rank_master = rank_master

    def __next__(self):
        try:
            batch = self.actual_iterator.next()
        except StopIteration:
            batch = None
        state = {k: getattr(self.actual_iterator, k, None)
                 for k in _EPOCH_KEYS}
        self.communicator.bcast_obj((batch, state), root=self.rank_master)
        if batch is None:
            raise StopIteration
        return batch

    def __getattr__(self, name):
        return getattr(self.actual_iterator, name)

    def reset(self):
        self.actual_iterator.reset()

    def finalize(self):
        self.actual_iterator.finalize()

    def serialize(self, serializer):
        self.actual_iterator.serialize(serializer)


class _SlaveIterator(Iterator):
    """Receives the master's batches (and its epoch counters)."""

    def __init__(self, communicator, rank_master):
        self.communicator = communicator
        self.rank_master = rank_master
        self.epoch = 0
        self.is_new_epoch = False
        self.epoch_detail = 0.
        self.previous_epoch_detail = None
        self.current_position = 0

    def __next__(self):
        batch, state = self.communicator.bcast_obj(None,
                                                   root=self.rank_master)
        for k, v in state.items():
            setattr(self, k, v)
        if batch is None:
            raise StopIteration
        return batch

    def _reset_counters(self):
        self.epoch = 0
        self.is_new_epoch = False
        self.epoch_detail = 0.
        self.previous_epoch_detail = None
        self.current_position = 0

    def reset(self):
        """The counters start over (the batches follow the master's
        iterator, which the master resets)."""
        self._reset_counters()

    def serialize(self, serializer):
        self.epoch = serializer('epoch', self.epoch)
        self.is_new_epoch = serializer('is_new_epoch', self.is_new_epoch)
        self.epoch_detail = serializer('epoch_detail', self.epoch_detail)
        self.current_position = serializer('current_position',
                                           self.current_position)


def create_multi_node_iterator(actual_iterator, communicator, rank_master=0):
    """An iterator that gives every process the batches of one process.

    ``rank_master`` takes its batches from ``actual_iterator`` and
    broadcasts each (with its epoch counters) to the others, which need no
    dataset: for a model split over processes that must all see the same
    examples (an encoder on one process, its decoder on another).

    Args:
        actual_iterator: the iterator (used on ``rank_master`` only).
        communicator: a chainer_mn communicator.
        rank_master (int): the process that iterates.

    Returns:
        The iterator of this process.
    """
    if not 0 <= rank_master < communicator.size:
        raise ValueError('create_multi_node_iterator: rank_master must be '
                         'in [0, {}), got {}'.format(communicator.size,
                                                     rank_master))
    if communicator.rank == rank_master:
        return _MasterIterator(actual_iterator, communicator, rank_master)
    return _SlaveIterator(communicator, rank_master)
