"""SerialIterator: mini-batches in the calling thread."""
import numpy

from chainer_core.dataset.iterator import Iterator
from chainer_core.iterators.order_samplers import ShuffleOrderSampler


class SerialIterator(Iterator):
    """Iterate over a dataset in mini-batches.

    Args:
        dataset: any indexable with ``len``.
        batch_size (int): examples per batch.
        repeat (bool): loop over epochs forever (else stop after one; the
            last batch may be short).
        shuffle (bool): shuffle each epoch (None: use ``order_sampler``,
            which defaults to shuffling).
        order_sampler (OrderSampler): decides each epoch's order.
    """

    def __init__(self, dataset, batch_size, repeat=True, shuffle=None,
                 order_sampler=None):
        if batch_size <= 0:
            raise ValueError('SerialIterator: batch_size must be positive, '
                             'got {}'.format(batch_size))
        self.dataset = dataset
        self.batch_size = batch_size
        self._repeat = repeat
        self._shuffle = shuffle
        if shuffle is not None:
            if order_sampler is not None:
                raise ValueError('SerialIterator: pass shuffle or '
                                 'order_sampler, not both')
            if shuffle:
                order_sampler = ShuffleOrderSampler()
        elif order_sampler is None:
            order_sampler = ShuffleOrderSampler()
        self.order_sampler = order_sampler
        self.reset()

    def _take(self, start, stop):
        if self._order is None:
            return list(self.dataset[start:stop])
        return [self.dataset[i] for i in self._order[start:stop]]

    def __next__(self):
        if not self._repeat and self.epoch > 0:
            raise StopIteration
        self._previous_epoch_detail = self.epoch_detail
        i = self.current_position
        i_end = i + self.batch_size
        n = self._epoch_size
        batch = self._take(i, i_end)
        if i_end >= n:
            if self._repeat:
                rest = i_end - n
                if self._order is not None:
                    order = self.order_sampler(self._order, i)
                    if len(order) != len(self._order):
                        raise ValueError(
                            'the order sampler returned an order of length '
                            '{} for a dataset of length {}'.format(
                                len(order), len(self._order)))
                    self._order = order
                if rest > 0:
                    batch.extend(self._take(0, rest))
                self.current_position = rest
            else:
                self.current_position = 0
            self.epoch += 1
            self.is_new_epoch = True
        else:
            self.is_new_epoch = False
            self.current_position = i_end
        return batch

    @property
    def _epoch_size(self):
        return len(self.dataset) if self._order is None else len(self._order)

    @property
    def epoch_detail(self):
        """The fractional epoch count (``2.5`` is half way into epoch 3)."""
        return self.epoch + self.current_position / self._epoch_size

    @property
    def previous_epoch_detail(self):
        """``epoch_detail`` before the last batch (None before the first)."""
        if self._previous_epoch_detail < 0:
            return None
        return self._previous_epoch_detail

    @property
    def repeat(self):
        return self._repeat

    def reset(self):
        """Go back to the start of the first epoch."""
        self.current_position = 0
        self.epoch = 0
        self.is_new_epoch = False
        self._previous_epoch_detail = -1.
        if self.order_sampler is not None:
            self._order = self.order_sampler(numpy.arange(len(self.dataset)),
                                             0)
        else:
            self._order = None

    def serialize(self, serializer):
        self.current_position = serializer('current_position',
                                           self.current_position)
        self.epoch = serializer('epoch', self.epoch)
        self.is_new_epoch = serializer('is_new_epoch', self.is_new_epoch)
        if self._order is not None:
            try:
                serializer('order', self._order)
            except KeyError:
                serializer('_order', self._order)
        sampler_serialize = getattr(self.order_sampler, 'serialize', None)
        if sampler_serialize is not None:
            sampler_serialize(serializer['order_sampler'])
        try:
            self._previous_epoch_detail = serializer(
                'previous_epoch_detail', self._previous_epoch_detail)
        except KeyError:
            self._previous_epoch_detail = self.epoch + \
                (self.current_position - self.batch_size) / self._epoch_size
            if self.epoch_detail > 0:
                self._previous_epoch_detail = max(
                    self._previous_epoch_detail, 0.)
            else:
                self._previous_epoch_detail = -1.
