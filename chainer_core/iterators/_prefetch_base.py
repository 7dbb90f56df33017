"""Epoch bookkeeping shared by the iterators that load batches ahead.

The planner reproduces :class:`~chainer_core.iterators.SerialIterator`
step by step (same positions, same calls of the order sampler at the same
points), so an iterator built on it yields exactly the batches a
SerialIterator with the same sampler state would. Planning runs ahead of
consumption by the prefetch depth; the state the user sees (``epoch``,
``current_position``, ...) is the one after the last batch returned, and that
is what ``serialize`` saves.
"""
import collections
import copy

import numpy

from chainer_core.dataset.iterator import Iterator
from chainer_core.serializer import Deserializer
from chainer_core.iterators.order_samplers import ShuffleOrderSampler

_State = collections.namedtuple(
    '_State', ('current_position', 'epoch', 'is_new_epoch',
               'previous_epoch_detail', 'order', 'sampler'))


def _sampler_snapshot(order_sampler):
    """A copy of a sampler that saves its state in snapshots, taken right
    after it made an order: planning ahead calls the sampler early, and a
    snapshot must hold its state as of the batch the user got last."""
    if getattr(order_sampler, 'serialize', None) is None:
        return None
    try:
        return copy.deepcopy(order_sampler)
    except Exception:
        return None


def _epoch_size(state, n):
    return n if state.order is None else len(state.order)


def _initial_state(n, order_sampler):
    order = None
    if order_sampler is not None:
        order = order_sampler(numpy.arange(n), 0)
    return _State(0, 0, False, -1., order, _sampler_snapshot(order_sampler))


def _indices(order, start, stop, n):
    if order is None:
        return list(range(start, min(stop, n)))
    return [int(i) for i in order[start:stop]]


def _plan_next(state, n, batch_size, repeat, order_sampler):
    """``(indices, state_after)`` of the next batch, or None at the end of a
    non-repeating iterator."""
    if not repeat and state.epoch > 0:
        return None
    size = _epoch_size(state, n)
    previous = state.epoch + state.current_position / size
    i = state.current_position
    i_end = i + batch_size
    order = state.order
    sampler = state.sampler
    indices = _indices(order, i, i_end, n)
    epoch = state.epoch
    if i_end >= size:
        if repeat:
            rest = i_end - size
            if order is not None:
                new_order = order_sampler(order, i)
                if len(new_order) != len(order):
                    raise ValueError(
                        'the order sampler returned an order of length {} '
                        'for a dataset of length {}'.format(
                            len(new_order), len(order)))
                order = new_order
                sampler = _sampler_snapshot(order_sampler)
            if rest > 0:
                indices.extend(_indices(order, 0, rest, n))
            position = rest
        else:
            position = 0
        epoch += 1
        is_new_epoch = True
    else:
        position = i_end
        is_new_epoch = False
    return indices, _State(position, epoch, is_new_epoch, previous, order,
                           sampler)


class _Planned:
    """One batch ahead of the consumer: its indices, the state after it, and
    the loader's handle (None until submitted, or after a failure)."""

    __slots__ = ('indices', 'state', 'handle')

    def __init__(self, indices, state):
        self.indices = indices
        self.state = state
        self.handle = None


class PrefetchIterator(Iterator):
    """Base of iterators that load up to ``n_prefetch`` batches ahead.

    Subclasses implement ``_submit(indices) -> handle``,
    ``_collect(handle) -> list of examples``, ``_discard(handle)`` and
    ``_shutdown()``.
    """

    def __init__(self, dataset, batch_size, repeat, shuffle, order_sampler,
                 n_prefetch, name):
        if batch_size <= 0:
            raise ValueError('{}: batch_size must be positive, got {}'.format(
                name, batch_size))
        if n_prefetch < 1:
            raise ValueError('{}: n_prefetch must be at least 1, got {}'
                             .format(name, n_prefetch))
        if shuffle is not None:
            if order_sampler is not None:
                raise ValueError('{}: pass shuffle or order_sampler, not '
                                 'both'.format(name))
            order_sampler = ShuffleOrderSampler() if shuffle else None
        elif order_sampler is None:
            order_sampler = ShuffleOrderSampler()
        self.dataset = dataset
        self.batch_size = batch_size
        self._repeat = repeat
        self._shuffle = shuffle
        self.order_sampler = order_sampler
        self.n_prefetch = n_prefetch
        self._pipeline = collections.deque()
        self.reset()

    # -- the state the user sees ---------------------------------------

    def _set_state(self, state):
        self.current_position = state.current_position
        self.epoch = state.epoch
        self.is_new_epoch = state.is_new_epoch
        self._previous_epoch_detail = state.previous_epoch_detail
        self._order = state.order
        self._sampler_state = state.sampler

    def _get_state(self):
        return _State(self.current_position, self.epoch, self.is_new_epoch,
                      self._previous_epoch_detail, self._order,
                      self._sampler_state)

    @property
    def _epoch_size(self):
        return _epoch_size(self._get_state(), len(self.dataset))

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

    # -- planning and prefetching --------------------------------------

    def _drop_pipeline(self):
        for planned in self._pipeline:
            if planned.handle is not None:
                self._discard(planned.handle)
                planned.handle = None
        self._pipeline.clear()
        self._plan_state = self._get_state()
        self._plan_ended = False
        self._plan_error = None

    def _unsubmit_pipeline(self):
        """Forget the loads in flight but keep the plan, so a retry loads the
        same batches."""
        for planned in self._pipeline:
            if planned.handle is not None:
                self._discard(planned.handle)
                planned.handle = None

    def _fill(self):
        while len(self._pipeline) < self.n_prefetch and not self._plan_ended \
                and self._plan_error is None:
            try:
                step = _plan_next(self._plan_state, len(self.dataset),
                                  self.batch_size, self._repeat,
                                  self.order_sampler)
            except Exception as e:
                # Raised when the consumer reaches this batch, as
                # SerialIterator would, not while an earlier one is returned.
                self._plan_error = e
                break
            if step is None:
                self._plan_ended = True
                break
            self._pipeline.append(_Planned(*step))
            self._plan_state = step[1]
        for planned in self._pipeline:
            if planned.handle is None:
                planned.handle = self._submit(planned.indices)

    def __next__(self):
        self._fill()
        if not self._pipeline:
            if self._plan_error is not None:
                error, self._plan_error = self._plan_error, None
                raise error
            raise StopIteration
        planned = self._pipeline[0]
        try:
            batch = self._collect(planned.handle)
        except BaseException:
            self._unsubmit_pipeline()
            raise
        self._pipeline.popleft()
        self._set_state(planned.state)
        try:
            self._fill()
        except Exception:
            # The batch in hand is returned; loads that could not start are
            # retried at the next call, which raises if they fail again.
            pass
        return batch

    def reset(self):
        """Go back to the start of the first epoch."""
        if self._pipeline:
            self._drop_pipeline()
        self._set_state(_initial_state(len(self.dataset),
                                       self.order_sampler))
        self._plan_state = self._get_state()
        self._plan_ended = False
        self._plan_error = None

    def finalize(self):
        """Stop the loaders; a later ``next`` starts them again."""
        pipeline = getattr(self, '_pipeline', None)
        if pipeline:
            self._drop_pipeline()
        self._shutdown()

    def __del__(self):
        try:
            self.finalize()
        except Exception:
            pass

    def serialize(self, serializer):
        """Save or load the position, with the same keys as
        :class:`~chainer_core.iterators.SerialIterator` (snapshots of either
        load into the other). Loading drops the batches loaded ahead."""
        before = self._get_state()
        before_order = None if before.order is None else \
            numpy.array(before.order, copy=True)
        loading = isinstance(serializer, Deserializer)
        self.current_position = serializer('current_position',
                                           self.current_position)
        self.epoch = serializer('epoch', self.epoch)
        self.is_new_epoch = serializer('is_new_epoch', self.is_new_epoch)
        if self._order is not None:
            try:
                serializer('order', self._order)
            except KeyError:
                serializer('_order', self._order)
        if getattr(self.order_sampler, 'serialize', None) is not None:
            if loading or self._sampler_state is None:
                self.order_sampler.serialize(serializer['order_sampler'])
            else:
                self._sampler_state.serialize(serializer['order_sampler'])
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
        after = self._get_state()
        changed = (before.current_position != after.current_position
                   or before.epoch != after.epoch
                   or bool(before.is_new_epoch) != bool(after.is_new_epoch)
                   or before.previous_epoch_detail
                   != after.previous_epoch_detail
                   or (before_order is not None
                       and not numpy.array_equal(before_order, after.order)))
        if loading or changed:
            # What was planned from the old position (and sampler state) is
            # void; the order is copied so that planned epochs never share
            # the array a later load writes into.
            if self._order is not None:
                self._order = numpy.array(self._order, copy=True)
            self._sampler_state = _sampler_snapshot(self.order_sampler)
            self._drop_pipeline()

    def __copy__(self):
        """An iterator at the same position with loaders of its own (the
        order sampler is shared)."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        state = self._get_state()
        if state.order is not None:
            state = state._replace(order=numpy.array(state.order, copy=True))
        other._set_state(state)
        other._pipeline = collections.deque()
        other._plan_state = state
        other._plan_ended = False
        other._plan_error = None
        other._detach_loader()
        return other

    def _detach_loader(self):
        """Drop the references to the loaders (a copy starts its own)."""
        raise NotImplementedError

    def _submit(self, indices):
        raise NotImplementedError

    def _collect(self, handle):
        raise NotImplementedError

    def _discard(self, handle):
        raise NotImplementedError

    def _shutdown(self):
        raise NotImplementedError
