"""Behaviour shared by MultiprocessIterator and MultithreadIterator: the
same batches as SerialIterator, epochs, reset, snapshots, copies."""
import copy

import numpy
import pytest

from chainer_core import iterators
from chainer_core.serializers import DictionarySerializer, NpzDeserializer

FACTORIES = {
    'process': lambda *a, **k: iterators.MultiprocessIterator(
        *a, n_processes=2, **k),
    'process_prefetch3': lambda *a, **k: iterators.MultiprocessIterator(
        *a, n_processes=2, n_prefetch=3, **k),
    'process_shared': lambda *a, **k: iterators.MultiprocessIterator(
        *a, n_processes=2, shared_mem=256, **k),
    'process_pipes': lambda *a, **k: iterators.MultiprocessIterator(
        *a, n_processes=2, shared_mem=0, **k),
    'thread': lambda *a, **k: iterators.MultithreadIterator(
        *a, n_threads=2, **k),
}


@pytest.fixture(params=sorted(FACTORIES))
def make(request):
    made = []

    def factory(*args, **kwargs):
        it = FACTORIES[request.param](*args, **kwargs)
        made.append(it)
        return it

    yield factory
    for it in made:
        it.finalize()


def _dataset(n):
    return [(numpy.full(3, i, dtype=numpy.float32), numpy.int32(i))
            for i in range(n)]


def _sampler(seed):
    return iterators.ShuffleOrderSampler(numpy.random.RandomState(seed))


def _ids(batch):
    return [int(label) for _, label in batch]


def _same_progress(a, b):
    assert a.epoch == b.epoch
    assert a.current_position == b.current_position
    assert a.is_new_epoch == b.is_new_epoch
    assert a.epoch_detail == pytest.approx(b.epoch_detail)
    if b.previous_epoch_detail is None:
        assert a.previous_epoch_detail is None
    else:
        assert a.previous_epoch_detail == pytest.approx(
            b.previous_epoch_detail)


@pytest.mark.parametrize('n,batch_size', [(12, 4), (13, 5), (7, 10), (5, 1)])
@pytest.mark.parametrize('repeat', [True, False])
@pytest.mark.parametrize('shuffle', ['sampler', False])
def test_same_batches_as_serial(make, n, batch_size, repeat, shuffle):
    data = _dataset(n)
    if shuffle == 'sampler':
        kwargs_a = dict(order_sampler=_sampler(5))
        kwargs_b = dict(order_sampler=_sampler(5))
    else:
        kwargs_a = kwargs_b = dict(shuffle=False)
    serial = iterators.SerialIterator(data, batch_size, repeat=repeat,
                                      **kwargs_a)
    it = make(data, batch_size, repeat=repeat, **kwargs_b)
    assert it.previous_epoch_detail is None
    _same_progress(it, serial)
    for _ in range(4 * n // batch_size + 3):
        try:
            expected = next(serial)
        except StopIteration:
            with pytest.raises(StopIteration):
                next(it)
            break
        got = next(it)
        assert _ids(got) == _ids(expected)
        for (x, _), (y, _) in zip(got, expected):
            numpy.testing.assert_array_equal(x, y)
            assert x.dtype == y.dtype
        _same_progress(it, serial)
    else:
        assert repeat


def test_one_epoch_then_stop(make):
    it = make(_dataset(10), 3, repeat=False, shuffle=False)
    batches = list(it)
    assert [len(b) for b in batches] == [3, 3, 3, 1]
    assert sum(map(_ids, batches), []) == list(range(10))
    assert it.epoch == 1 and it.is_new_epoch
    with pytest.raises(StopIteration):
        next(it)


def test_epoch_detail_steps(make):
    it = make(_dataset(8), 3, shuffle=False)
    details = []
    for _ in range(4):
        next(it)
        details.append((it.previous_epoch_detail, it.epoch_detail,
                        it.is_new_epoch))
    assert details == [(0., 3 / 8, False), (3 / 8, 6 / 8, False),
                       (6 / 8, 1 + 1 / 8, True),
                       (1 + 1 / 8, 1 + 4 / 8, False)]


def test_reset_starts_over(make):
    it = make(_dataset(10), 4, repeat=False, shuffle=False)
    first = _ids(next(it))
    next(it)
    it.reset()
    assert it.epoch == 0 and it.current_position == 0
    assert it.previous_epoch_detail is None
    assert _ids(next(it)) == first
    assert sum(map(_ids, it), []) == list(range(4, 10))
    it.reset()
    assert sum(map(_ids, it), []) == list(range(10))


def _snapshot(it):
    target = {}
    it.serialize(DictionarySerializer(target))
    return target


def test_resume_mid_epoch(make):
    data = _dataset(11)
    it = make(data, 3, order_sampler=_sampler(1))
    for _ in range(5):
        next(it)
    saved = _snapshot(it)
    assert {'current_position', 'epoch', 'is_new_epoch', 'order',
            'previous_epoch_detail'} <= set(saved)
    expected = [_ids(next(it)) for _ in range(2)]
    progress = (it.epoch, it.current_position, it.epoch_detail)

    resumed = make(data, 3, order_sampler=_sampler(99))
    next(resumed)
    resumed.serialize(NpzDeserializer(saved))
    assert resumed.epoch == 1 and resumed.current_position == 4
    assert resumed.epoch_detail == pytest.approx(1 + 4 / 11)
    assert resumed.previous_epoch_detail == pytest.approx(1 + 1 / 11)
    got = [_ids(next(resumed)) for _ in range(2)]
    assert got == expected
    assert (resumed.epoch, resumed.current_position,
            resumed.epoch_detail) == progress


def test_exact_resume_across_epochs(make):
    # Batches after a snapshot do not depend on how far the saved iterator
    # had loaded ahead: the sampler's state is the one of the last batch
    # returned.
    data = _dataset(7)
    it = make(data, 3)
    for _ in range(4):
        next(it)
    saved = _snapshot(it)
    assert 'order_sampler/keys' in saved
    expected = [_ids(next(it)) for _ in range(9)]
    resumed = make(data, 3)
    next(resumed)
    resumed.serialize(NpzDeserializer(saved))
    assert [_ids(next(resumed)) for _ in range(9)] == expected


@pytest.mark.parametrize('direction', ['from_serial', 'to_serial'])
def test_snapshots_interchange_with_serial_iterator(make, direction):
    data = _dataset(10)
    serial = iterators.SerialIterator(data, 4)
    it = make(data, 4)
    source, target = (serial, it) if direction == 'from_serial' else \
        (it, serial)
    for _ in range(5):
        next(source)
    saved = _snapshot(source)
    expected = [_ids(next(source)) for _ in range(7)]
    target.serialize(NpzDeserializer(saved))
    assert [_ids(next(target)) for _ in range(7)] == expected
    _same_progress(target, source)


def test_resume_without_shuffle_continues_across_epochs(make):
    data = _dataset(7)
    it = make(data, 3, shuffle=False)
    for _ in range(2):
        next(it)
    saved = _snapshot(it)
    expected = [_ids(next(it)) for _ in range(6)]
    resumed = make(data, 3, shuffle=False)
    resumed.serialize(NpzDeserializer(saved))
    assert [_ids(next(resumed)) for _ in range(6)] == expected


def test_saving_a_snapshot_keeps_the_sequence(make):
    data = _dataset(9)
    serial = iterators.SerialIterator(data, 4, order_sampler=_sampler(3))
    it = make(data, 4, order_sampler=_sampler(3))
    for k in range(8):
        assert _ids(next(it)) == _ids(next(serial))
        if k % 3 == 1:
            _snapshot(it)


def test_snapshot_before_the_first_batch(make):
    it = make(_dataset(6), 4, shuffle=False)
    saved = _snapshot(it)
    assert saved['previous_epoch_detail'] == -1.
    other = make(_dataset(6), 4, shuffle=False)
    next(other)
    other.serialize(NpzDeserializer(saved))
    assert other.previous_epoch_detail is None
    assert _ids(next(other)) == [0, 1, 2, 3]


def test_copy_continues_independently(make):
    data = _dataset(10)
    it = make(data, 3, shuffle=False)
    next(it)
    twin = copy.copy(it)
    try:
        assert _ids(next(twin)) == [3, 4, 5]
        assert _ids(next(twin)) == [6, 7, 8]
        assert _ids(next(it)) == [3, 4, 5]
        assert twin.epoch_detail == pytest.approx(0.9)
    finally:
        twin.finalize()


def test_dict_examples_and_ragged_arrays(make):
    data = [{'x': numpy.arange(i + 1, dtype=numpy.float64), 'y': i}
            for i in range(6)]
    it = make(data, 4, repeat=False, shuffle=False)
    batches = list(it)
    assert [e['y'] for e in batches[0] + batches[1]] == list(range(6))
    for e in batches[0] + batches[1]:
        numpy.testing.assert_array_equal(e['x'], numpy.arange(e['y'] + 1))


def test_usable_after_finalize(make):
    it = make(_dataset(6), 4, shuffle=False)
    assert _ids(next(it)) == [0, 1, 2, 3]
    it.finalize()
    assert _ids(next(it)) == [4, 5, 0, 1]


def test_with_block_finalizes(make):
    with make(_dataset(6), 2, shuffle=False) as it:
        assert _ids(next(it)) == [0, 1]


def test_shuffle_and_sampler_together_is_an_error(make):
    with pytest.raises(ValueError, match='order_sampler'):
        make(_dataset(4), 2, shuffle=True, order_sampler=_sampler(0))


def test_bad_batch_size(make):
    with pytest.raises(ValueError, match='batch_size'):
        make(_dataset(4), 0)


class _WrongLengthSampler(iterators.OrderSampler):
    def __call__(self, current_order, current_position):
        return numpy.arange(len(current_order) + (current_position > 0))


def test_sampler_of_wrong_length(make):
    # The error comes with the batch that ends the epoch, as with
    # SerialIterator, not earlier while batches are loaded ahead.
    it = make(_dataset(4), 3, order_sampler=_WrongLengthSampler())
    assert _ids(next(it)) == [0, 1, 2]
    with pytest.raises(ValueError, match='order sampler'):
        next(it)
