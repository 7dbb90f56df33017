"""MultiprocessIterator: workers, their failures, shared memory."""
import multiprocessing
import os
import signal
import time
import warnings

import numpy
import pytest

from chainer_core.dataset import DatasetMixin
from chainer_core.iterators import MultiprocessIterator, SerialIterator


class Arrays(DatasetMixin):
    def __init__(self, n, shape=(4,)):
        self.n = n
        self.shape = shape

    def __len__(self):
        return self.n

    def get_example(self, i):
        return numpy.full(self.shape, i, dtype=numpy.float32), i


class Failing(DatasetMixin):
    """Raises while loading example ``bad``."""

    def __init__(self, n, bad):
        self.n = n
        self.bad = bad

    def __len__(self):
        return self.n

    def get_example(self, i):
        if i == self.bad:
            raise ValueError('boom at {}'.format(i))
        return i


class _Unpicklable(Exception):
    def __reduce__(self):
        raise TypeError('no pickling')


class FailingUnpicklably(Failing):
    def get_example(self, i):
        if i == self.bad:
            raise _Unpicklable('strange failure')
        return i


class DiesOnce(DatasetMixin):
    """The process loading example ``bad`` exits, the first time only."""

    def __init__(self, n, bad, flag):
        self.n = n
        self.bad = bad
        self.flag = flag

    def __len__(self):
        return self.n

    def get_example(self, i):
        if i == self.bad and not os.path.exists(self.flag):
            open(self.flag, 'w').close()
            os._exit(3)
        return i


class Slow(DatasetMixin):
    def __init__(self, n, delay):
        self.n = n
        self.delay = delay

    def __len__(self):
        return self.n

    def get_example(self, i):
        time.sleep(self.delay)
        return i


class Unpicklable(DatasetMixin):
    def __len__(self):
        return 4

    def get_example(self, i):
        return lambda: i


class Pids(DatasetMixin):
    def __len__(self):
        return 8

    def get_example(self, i):
        return os.getpid()


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_workers_start_on_first_batch_and_finalize_ends_them():
    it = MultiprocessIterator(Arrays(10), 4, n_processes=2)
    assert it._worker_pids() == []
    next(it)
    pids = it._worker_pids()
    assert len(pids) == 2 and all(_alive(p) for p in pids)
    it.finalize()
    assert it._worker_pids() == []
    assert not any(_alive(p) for p in pids)
    children = {p.pid for p in multiprocessing.active_children()}
    assert not children & set(pids)
    it.finalize()


def test_garbage_collected_iterator_ends_its_workers():
    it = MultiprocessIterator(Arrays(10), 4, n_processes=2)
    next(it)
    pids = it._worker_pids()
    del it
    deadline = time.monotonic() + 10
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not any(_alive(p) for p in pids)


def test_default_processes_is_cpu_count():
    it = MultiprocessIterator(Arrays(4), 2)
    assert it.n_processes == multiprocessing.cpu_count()


def test_worker_exception_reaches_the_parent_with_its_traceback():
    it = MultiprocessIterator(Failing(10, bad=6), 4, n_processes=2,
                              shuffle=False)
    try:
        assert next(it) == [0, 1, 2, 3]
        with pytest.raises(ValueError, match='boom at 6') as info:
            next(it)
        cause = str(info.value.__cause__)
        assert 'Traceback' in cause and 'get_example' in cause
        assert "raise ValueError('boom at {}'.format(i))" in cause
        assert 'ValueError: boom at 6' in cause
        # The failed batch is not skipped: it fails again on retry.
        assert it.current_position == 4
        with pytest.raises(ValueError):
            next(it)
    finally:
        it.finalize()


def test_unpicklable_worker_exception_becomes_runtime_error():
    it = MultiprocessIterator(FailingUnpicklably(4, bad=1), 4,
                              n_processes=1, shuffle=False)
    try:
        with pytest.raises(RuntimeError, match='_Unpicklable') as info:
            next(it)
        assert 'strange failure' in str(info.value.__cause__)
    finally:
        it.finalize()


def test_unpicklable_example_is_reported():
    it = MultiprocessIterator(Unpicklable(), 2, n_processes=1)
    try:
        with pytest.raises(Exception) as info:
            next(it)
        assert 'pickle' in str(info.value).lower() or \
            'pickle' in str(info.value.__cause__).lower()
    finally:
        it.finalize()


def test_dying_worker_raises_instead_of_hanging(tmp_path):
    flag = str(tmp_path / 'died')
    it = MultiprocessIterator(DiesOnce(12, bad=5, flag=flag), 4,
                              n_processes=2, shuffle=False,
                              dataset_timeout=None)
    try:
        assert next(it) == [0, 1, 2, 3]
        with pytest.raises(RuntimeError, match='exit code 3'):
            next(it)
        assert os.path.exists(flag)
        # The worker was replaced: the same batch loads on retry.
        assert next(it) == [4, 5, 6, 7]
        assert next(it) == [8, 9, 10, 11]
        assert len(it._worker_pids()) == 2
    finally:
        it.finalize()


def test_worker_killed_while_idle_is_replaced():
    it = MultiprocessIterator(Arrays(8), 4, n_processes=2, shuffle=False)
    try:
        next(it)
        next(it)
        time.sleep(0.05)
        victim = it._worker_pids()[0]
        os.kill(victim, signal.SIGKILL)
        for _ in range(4):
            batch = next(it)
            assert [label for _, label in batch] in ([0, 1, 2, 3],
                                                     [4, 5, 6, 7])
    except RuntimeError as e:
        # The victim may have held a prefetched task: reported, then the
        # retry succeeds.
        assert 'exited unexpectedly' in str(e)
        assert len(next(it)) == 4
    finally:
        it.finalize()
    assert not _alive(victim)


def test_maxtasksperchild_replaces_workers():
    data = Pids()
    it = MultiprocessIterator(data, 2, n_processes=2, shuffle=False,
                              maxtasksperchild=1)
    try:
        seen = set()
        for _ in range(6):
            seen.update(next(it))
        # Each task (one example at this batch size) got a fresh process.
        assert len(seen) >= 6
        assert len(it._worker_pids()) == 2
    finally:
        it.finalize()


def test_maxtasksperchild_keeps_the_batches():
    data = Arrays(13)
    serial = SerialIterator(data, 5, shuffle=False)
    it = MultiprocessIterator(data, 5, n_processes=2, shuffle=False,
                              maxtasksperchild=2, n_prefetch=2)
    try:
        for _ in range(8):
            assert [b for _, b in next(it)] == [b for _, b in next(serial)]
    finally:
        it.finalize()


@pytest.mark.parametrize('example', ['array', 'tuple', 'list', 'dict'])
def test_shared_memory_round_trip(example):
    def make(i):
        a = numpy.arange(12, dtype=numpy.float64).reshape(3, 4) + i
        b = numpy.array([i], dtype=numpy.int16)
        c = numpy.asfortranarray(numpy.arange(6, dtype=numpy.uint8)
                                 .reshape(2, 3) * i)
        return {'array': a, 'tuple': (a, b, 'text', c),
                'list': [a, b, i], 'dict': {'a': a, 'b': b, 'i': i}}[example]

    data = [make(i) for i in range(7)]
    it = MultiprocessIterator(data, 3, n_processes=2, shared_mem=512,
                              shuffle=False, repeat=False)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('error')
            got = sum(list(it), [])
    finally:
        it.finalize()
    assert len(got) == 7
    for g, e in zip(got, data):
        assert type(g) is type(e)
        items = list(g.items()) if isinstance(g, dict) else \
            list(enumerate(g)) if isinstance(g, (tuple, list)) else [(0, g)]
        expected = e if isinstance(e, (dict, tuple, list)) else [e]
        for key, value in items:
            want = expected[key]
            if isinstance(want, numpy.ndarray):
                assert value.dtype == want.dtype and value.shape == want.shape
                numpy.testing.assert_array_equal(value, want)
                assert value.flags.writeable and value.flags.owndata
            else:
                assert value == want


def test_shared_memory_too_small_warns_and_still_delivers():
    data = Arrays(6, shape=(64,))
    it = MultiprocessIterator(data, 3, n_processes=1, shared_mem=16,
                              shuffle=False)
    try:
        with pytest.warns(UserWarning, match='shared_mem=16'):
            batch = next(it)
        for x, i in batch:
            numpy.testing.assert_array_equal(x, numpy.full(64, i))
        with warnings.catch_warnings():
            warnings.simplefilter('error')
            next(it)
    finally:
        it.finalize()


def test_shared_memory_sized_after_the_first_batch():
    data = Arrays(12, shape=(64,))
    serial = SerialIterator(data, 4, shuffle=False)
    it = MultiprocessIterator(data, 4, n_processes=2, shuffle=False,
                              n_prefetch=2)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('error')
            first = next(it)
            # 256 bytes of array data and the alignment slack, rounded up;
            # the batches loading ahead moved to workers with buffers.
            assert it._example_size == 320
            assert it._pool._slot_size > 0
            assert all(w.view is not None for w in it._pool.workers)
            batches = [first] + [next(it) for _ in range(5)]
        for batch in batches:
            expected = next(serial)
            assert [i for _, i in batch] == [i for _, i in expected]
            for (x, _), (y, _) in zip(batch, expected):
                numpy.testing.assert_array_equal(x, y)
    finally:
        it.finalize()


def test_no_shared_memory_for_examples_without_arrays():
    it = MultiprocessIterator(Pids(), 4, n_processes=2, shuffle=False)
    try:
        next(it)
        pids = it._worker_pids()
        next(it)
        assert it._example_size == 0
        assert it._worker_pids() == pids
    finally:
        it.finalize()


def test_shared_mem_zero_uses_pipes_only():
    it = MultiprocessIterator(Arrays(8), 4, n_processes=2, shuffle=False,
                              shared_mem=0)
    try:
        next(it)
        next(it)
        assert it._pool._slot_size == 0
        assert all(w.view is None for w in it._pool.workers)
    finally:
        it.finalize()


def test_dataset_timeout_warns_and_waits():
    it = MultiprocessIterator(Slow(4, 0.3), 2, n_processes=1, shuffle=False,
                              dataset_timeout=0.1)
    try:
        with pytest.warns(MultiprocessIterator.TimeoutWarning,
                          match='dataset_timeout'):
            assert next(it) == [0, 1]
    finally:
        it.finalize()


class Marking(DatasetMixin):
    """Leaves a file for each example loaded."""

    def __init__(self, n, folder):
        self.n = n
        self.folder = folder

    def __len__(self):
        return self.n

    def get_example(self, i):
        open(os.path.join(self.folder, str(i)), 'w').close()
        return i


def _wait_for(condition, seconds=10):
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)
    return condition()


def test_batches_load_ahead_without_next(tmp_path):
    it = MultiprocessIterator(Marking(20, str(tmp_path)), 2, n_processes=2,
                              shuffle=False, n_prefetch=3)
    try:
        assert next(it) == [0, 1]
        # Three batches after the one returned load while nobody asks.
        assert _wait_for(lambda: all(
            os.path.exists(str(tmp_path / str(i))) for i in range(2, 8)))
        assert next(it) == [2, 3]
    finally:
        it.finalize()


@pytest.mark.parametrize('kwargs,name', [
    (dict(n_processes=0), 'n_processes'),
    (dict(n_prefetch=0), 'n_prefetch'),
    (dict(shared_mem=-1), 'shared_mem'),
    (dict(maxtasksperchild=0), 'maxtasksperchild'),
    (dict(dataset_timeout=0), 'dataset_timeout'),
])
def test_bad_arguments(kwargs, name):
    with pytest.raises(ValueError, match=name):
        MultiprocessIterator(Arrays(4), 2, **kwargs)
