"""MultithreadIterator: loading threads and their failures."""
import threading
import time

import pytest

from chainer_core.dataset import DatasetMixin
from chainer_core.iterators import MultithreadIterator


class Recording(DatasetMixin):
    def __init__(self, n, delay=0., bad=None):
        self.n = n
        self.delay = delay
        self.bad = bad
        self.threads = set()
        self.thread_objects = set()
        self.loaded = set()

    def __len__(self):
        return self.n

    def get_example(self, i):
        self.threads.add(threading.current_thread().name)
        self.thread_objects.add(threading.current_thread())
        time.sleep(self.delay)
        if i == self.bad:
            raise KeyError('missing {}'.format(i))
        self.loaded.add(i)
        return i


def test_loads_in_worker_threads():
    data = Recording(8)
    with MultithreadIterator(data, 4, n_threads=2, shuffle=False) as it:
        assert next(it) == [0, 1, 2, 3]
    assert data.threads and all(
        name.startswith('MultithreadIterator') for name in data.threads)


def test_threads_load_ahead_and_in_parallel():
    data = Recording(16, delay=0.05)
    with MultithreadIterator(data, 4, n_threads=4, shuffle=False) as it:
        assert next(it) == [0, 1, 2, 3]
        deadline = time.monotonic() + 10
        while len(data.loaded) < 8 and time.monotonic() < deadline:
            time.sleep(0.01)
        # The next batch loads while nobody asks.
        assert data.loaded >= set(range(8))
        assert len(data.threads) > 1
        assert next(it) == [4, 5, 6, 7]


def test_exception_keeps_its_traceback():
    data = Recording(6, bad=5)
    with MultithreadIterator(data, 3, n_threads=2, shuffle=False) as it:
        assert next(it) == [0, 1, 2]
        with pytest.raises(KeyError, match='missing 5') as info:
            next(it)
        names = [entry.name for entry in info.traceback]
        assert 'get_example' in names
        assert it.current_position == 3


def test_finalize_stops_the_threads():
    data = Recording(8)
    it = MultithreadIterator(data, 2, n_threads=3, shuffle=False)
    next(it)
    it.finalize()
    assert data.thread_objects
    assert not any(t.is_alive() for t in data.thread_objects)


def test_bad_n_threads():
    with pytest.raises(ValueError, match='n_threads'):
        MultithreadIterator(Recording(4), 2, n_threads=0)


class _FailingSubmit(MultithreadIterator):
    """Cannot start loads from its second one on, ``failures`` times."""

    calls = 0
    failures = 1

    def _submit(self, indices):
        self.calls += 1
        if 2 <= self.calls < 2 + self.failures:
            raise RuntimeError('cannot start loading')
        return super()._submit(indices)


def test_a_load_that_cannot_start_is_retried():
    with _FailingSubmit(Recording(9), 3, shuffle=False) as it:
        assert next(it) == [0, 1, 2]
        assert next(it) == [3, 4, 5]
        assert next(it) == [6, 7, 8]


def test_a_load_that_never_starts_fails_at_its_batch():
    with _FailingSubmit(Recording(9), 3, shuffle=False) as it:
        it.failures = 2
        assert next(it) == [0, 1, 2]
        with pytest.raises(RuntimeError, match='cannot start'):
            next(it)
        assert it.current_position == 3
        assert next(it) == [3, 4, 5]
