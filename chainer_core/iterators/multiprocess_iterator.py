"""MultiprocessIterator: examples loaded by worker processes."""
import collections
import math
import multiprocessing
import multiprocessing.connection
import os
import pickle
import signal
import time
import traceback
import warnings

import numpy

from chainer_core.iterators._prefetch_base import PrefetchIterator

_MAX_CHUNK = 1024
# The task messages a worker holds stay well below a pipe's buffer (a
# pickled index takes at most 9 bytes), so sending one never waits for a
# worker that is itself blocked sending a large result.
_TASK_BYTES = 48 * 1024
_INDEX_BYTES = 9
_ALIGN = 16
# How often an idle worker checks that its parent is still alive.
_PARENT_CHECK_S = 1.0


class _SharedArray:
    """Where a worker left an array in its shared buffer."""

    __slots__ = ('offset', 'shape', 'dtype')

    def __init__(self, offset, shape, dtype):
        self.offset = offset
        self.shape = shape
        self.dtype = dtype

    def __getstate__(self):
        return self.offset, self.shape, self.dtype

    def __setstate__(self, state):
        self.offset, self.shape, self.dtype = state

    def read(self, view):
        nbytes = math.prod(self.shape) * self.dtype.itemsize
        flat = view[self.offset:self.offset + nbytes].view(self.dtype)
        return flat.reshape(self.shape).copy()


def _packable(a):
    return type(a) is numpy.ndarray and not a.dtype.hasobject


def _pack(example, view, start, size):
    """Move the arrays of ``example`` (an array, or a tuple, list or dict of
    them) into ``view[start:start + size]``.

    Returns the packed example and the bytes the arrays needed when they did
    not all fit (0 when they did); arrays that do not fit stay in the example
    and travel pickled.
    """
    end = start + size
    cursor = start
    needed = 0
    short = False

    def put(a):
        nonlocal cursor, needed, short
        if not _packable(a):
            return a
        offset = -(-cursor // _ALIGN) * _ALIGN
        needed += a.nbytes + _ALIGN
        if offset + a.nbytes > end:
            short = True
            return a
        view[offset:offset + a.nbytes] = \
            numpy.ascontiguousarray(a).reshape(-1).view(numpy.uint8)
        cursor = offset + a.nbytes
        return _SharedArray(offset, a.shape, a.dtype)

    kind = type(example)
    if kind is tuple or kind is list:
        packed = kind(put(v) for v in example)
    elif kind is dict:
        packed = {k: put(v) for k, v in example.items()}
    else:
        packed = put(example)
    return packed, (needed if short else 0)


def _array_bytes(example):
    """Bytes ``_pack`` needs for the arrays of ``example``."""
    kind = type(example)
    if kind is tuple or kind is list:
        values = example
    elif kind is dict:
        values = example.values()
    else:
        values = (example,)
    return sum(v.nbytes + _ALIGN for v in values if _packable(v))


def _unpack(example, view):
    kind = type(example)
    if kind is _SharedArray:
        return example.read(view)
    if kind is tuple or kind is list:
        return kind(v.read(view) if type(v) is _SharedArray else v
                    for v in example)
    if kind is dict:
        return {k: v.read(view) if type(v) is _SharedArray else v
                for k, v in example.items()}
    return example


def _error_reply(task_id, error):
    text = ''.join(traceback.format_exception(type(error), error,
                                              error.__traceback__))
    try:
        payload = pickle.dumps(error)
        pickle.loads(payload)
    except Exception:
        payload = None
    return ('error', task_id, text, payload, type(error).__qualname__,
            str(error))


def _worker_main(dataset, conn, max_tasks, shared, slot_size, example_size):
    # Ctrl-C belongs to the parent, which stops the workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()
    view = None if shared is None else numpy.frombuffer(shared,
                                                        dtype=numpy.uint8)
    done = 0
    while max_tasks is None or done < max_tasks:
        try:
            while not conn.poll(_PARENT_CHECK_S):
                if os.getppid() != parent:
                    return
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        task_id, indices, slot = message
        try:
            examples = [dataset[i] for i in indices]
            needed = 0
            if view is not None:
                for j, example in enumerate(examples):
                    examples[j], short = _pack(
                        example, view, slot * slot_size + j * example_size,
                        example_size)
                    needed = max(needed, short)
            reply = ('ok', task_id, examples, needed)
        except BaseException as e:
            reply = _error_reply(task_id, e)
        try:
            conn.send(reply)
        except (OSError, EOFError):
            return
        except Exception as e:
            # An example that cannot be pickled: report it instead.
            try:
                conn.send(_error_reply(task_id, e))
            except (OSError, EOFError):
                return
        done += 1


class _WorkerTraceback(Exception):
    """Carries the traceback text of an error raised in a worker."""

    def __init__(self, pid, text):
        super().__init__(pid, text)
        self.pid = pid
        self.text = text

    def __str__(self):
        return 'traceback in worker process {}:\n\n{}'.format(
            self.pid, self.text)


class _Worker:
    __slots__ = ('process', 'conn', 'view', 'tasks', 'sent', 'retiring')

    def __init__(self, process, conn, view):
        self.process = process
        self.conn = conn
        self.view = view
        self.tasks = {}
        self.sent = 0
        self.retiring = False


class _Pool:
    """Worker processes, each fed through its own pipe, so the parent always
    knows which tasks a worker holds and notices when it dies. A worker
    holds up to ``capacity`` tasks, each with a slot of its shared buffer
    (when ``example_size`` is set)."""

    def __init__(self, dataset, n_processes, maxtasksperchild, example_size,
                 chunk_size, capacity):
        self._ctx = multiprocessing.get_context()
        self._dataset = dataset
        self._max_tasks = maxtasksperchild
        self._example_size = example_size
        self._capacity = capacity
        self._slot_size = -(-chunk_size * (example_size or 0) // _ALIGN) * \
            _ALIGN
        self.results = {}
        self._backlog = collections.deque()
        self._forgotten = set()
        self._next_id = 0
        self._retired = []
        self.workers = []
        for _ in range(n_processes):
            self.workers.append(self._spawn())

    def _spawn(self):
        parent_conn, child_conn = self._ctx.Pipe()
        shared = view = None
        if self._example_size:
            shared = self._ctx.RawArray('B',
                                        self._capacity * self._slot_size)
            view = numpy.frombuffer(shared, dtype=numpy.uint8)
        process = self._ctx.Process(
            target=_worker_main, name='MultiprocessIterator-worker',
            args=(self._dataset, child_conn, self._max_tasks, shared,
                  self._slot_size, self._example_size),
            daemon=True)
        process.start()
        child_conn.close()
        return _Worker(process, parent_conn, view)

    def submit(self, chunks):
        ids = []
        for chunk in chunks:
            self._backlog.append((self._next_id, chunk))
            ids.append(self._next_id)
            self._next_id += 1
        self._dispatch()
        return ids

    def forget(self, ids):
        in_backlog = False
        for task_id in ids:
            if self.results.pop(task_id, None) is not None:
                continue
            if any(task_id in w.tasks for w in self.workers):
                self._forgotten.add(task_id)
            else:
                in_backlog = True
        if in_backlog:
            dropped = set(ids)
            self._backlog = collections.deque(
                t for t in self._backlog if t[0] not in dropped)

    def _dispatch(self):
        while self._backlog:
            free = [w for w in self.workers
                    if not w.retiring and len(w.tasks) < self._capacity]
            if not free:
                return
            worker = min(free, key=lambda w: len(w.tasks))
            task_id, chunk = self._backlog[0]
            slot = min(set(range(self._capacity)) -
                       set(worker.tasks.values()))
            try:
                worker.conn.send((task_id, chunk, slot))
            except OSError:
                # The worker is gone; its exit is handled and the task goes
                # to another one.
                self._exited(worker)
                continue
            self._backlog.popleft()
            worker.tasks[task_id] = slot
            worker.sent += 1
            if self._max_tasks is not None and \
                    worker.sent >= self._max_tasks:
                worker.retiring = True

    def _receive(self, worker):
        while True:
            try:
                if not worker.conn.poll():
                    return
                message = worker.conn.recv()
            except (EOFError, OSError):
                return
            task_id = message[1]
            worker.tasks.pop(task_id, None)
            if task_id in self._forgotten:
                self._forgotten.discard(task_id)
                continue
            if message[0] == 'ok' and worker.view is not None:
                # The slot is reused by the next task: copy out now.
                message = ('ok', task_id,
                           [_unpack(e, worker.view) for e in message[2]],
                           message[3])
            self.results[task_id] = message + (worker.process.pid,)

    def _exited(self, worker):
        """Take in what a finished worker sent, fail the tasks it still held
        and start a replacement."""
        self._receive(worker)
        worker.process.join(1)
        if worker.process.exitcode is None:
            worker.process.kill()
            worker.process.join()
        for task_id in worker.tasks:
            if task_id in self._forgotten:
                self._forgotten.discard(task_id)
            else:
                self.results[task_id] = ('died', task_id,
                                         worker.process.exitcode,
                                         worker.process.pid)
        worker.tasks.clear()
        self._replace(worker)

    def _replace(self, worker):
        index = self.workers.index(worker)
        worker.conn.close()
        self._retired.append(worker.process)
        self.workers[index] = self._spawn()

    def poll(self, timeout):
        """Wait up to ``timeout`` seconds (None: no limit) for results or a
        worker's exit, and take in whatever arrived."""
        self._dispatch()
        conns = {w.conn: w for w in self.workers}
        sentinels = {w.process.sentinel: w for w in self.workers}
        ready = multiprocessing.connection.wait(
            list(conns) + list(sentinels), timeout)
        for obj in ready:
            if obj in conns:
                self._receive(conns[obj])
        for obj in ready:
            worker = sentinels.get(obj)
            if worker is not None and worker in self.workers:
                self._exited(worker)
        for worker in list(self.workers):
            if worker.retiring and not worker.tasks:
                self._replace(worker)
        still_running = []
        for process in self._retired:
            process.join(0)
            if process.exitcode is None:
                still_running.append(process)
        self._retired = still_running
        self._dispatch()

    def shutdown(self):
        processes = [w.process for w in self.workers] + self._retired
        for process in processes:
            if process.exitcode is None:
                process.terminate()
        for process in processes:
            process.join(5)
            if process.exitcode is None:
                process.kill()
                process.join()
        for worker in self.workers:
            worker.conn.close()
        self.workers = []
        self._retired = []
        self.results.clear()
        self._backlog.clear()
        self._forgotten.clear()

    @property
    def pids(self):
        return [w.process.pid for w in self.workers]


class MultiprocessIterator(PrefetchIterator):
    """Iterate over a dataset, loading examples in worker processes.

    Up to ``n_prefetch`` batches are loaded ahead while the caller works.
    The batches and their order are exactly those of
    :class:`~chainer_core.iterators.SerialIterator` with the same order
    sampler. Workers start at the first ``next``; :meth:`finalize` (or
    leaving a ``with`` block) stops them.

    The dataset reaches the workers by fork (or by pickling, where the start
    method is ``spawn``/``forkserver``). Examples come back pickled through
    pipes, except for their arrays (of an example that is an array, or a
    tuple, list or dict), which come through shared memory. An exception
    raised while loading an example is raised again here, with the worker's
    traceback as its cause; a worker that dies makes ``next`` raise
    RuntimeError instead of waiting forever (the worker is replaced, so a
    retry may succeed).

    Args:
        dataset: any indexable with ``len``.
        batch_size (int): examples per batch.
        repeat (bool): loop over epochs forever (else stop after one; the
            last batch may be short).
        shuffle (bool): shuffle each epoch (None: use ``order_sampler``,
            which defaults to shuffling).
        n_processes (int): worker processes (default: the CPU count).
        n_prefetch (int): batches loaded ahead.
        shared_mem (int): bytes of shared memory per example for its
            arrays; arrays that do not fit are pickled instead, with a
            warning. None sizes it after the first batch (which travels
            through pipes; the workers then restart once), 0 sends
            everything through pipes.
        order_sampler (OrderSampler): decides each epoch's order.
        dataset_timeout (float): seconds to wait for a batch before warning
            with :class:`MultiprocessIterator.TimeoutWarning` (the wait goes
            on); None never warns.
        maxtasksperchild (int): tasks (groups of examples) a worker handles
            before it is replaced by a fresh one (None: no limit).
    """

    class TimeoutWarning(RuntimeWarning):
        """Loading a batch takes longer than ``dataset_timeout``."""

    def __init__(self, dataset, batch_size, repeat=True, shuffle=None,
                 n_processes=None, n_prefetch=1, shared_mem=None,
                 order_sampler=None, dataset_timeout=30.0,
                 maxtasksperchild=None):
        if n_processes is None:
            n_processes = multiprocessing.cpu_count()
        if n_processes < 1:
            raise ValueError('MultiprocessIterator: n_processes must be at '
                             'least 1, got {}'.format(n_processes))
        if shared_mem is not None and shared_mem < 0:
            raise ValueError('MultiprocessIterator: shared_mem must be a '
                             'byte count, got {}'.format(shared_mem))
        if maxtasksperchild is not None and maxtasksperchild < 1:
            raise ValueError('MultiprocessIterator: maxtasksperchild must be '
                             'at least 1, got {}'.format(maxtasksperchild))
        if dataset_timeout is not None and dataset_timeout <= 0:
            raise ValueError('MultiprocessIterator: dataset_timeout must be '
                             'positive, got {}'.format(dataset_timeout))
        self.n_processes = n_processes
        self.shared_mem = shared_mem
        self.dataset_timeout = dataset_timeout
        self.maxtasksperchild = maxtasksperchild
        self._pool = None
        self._short_warned = False
        self._example_size = shared_mem
        super().__init__(dataset, batch_size, repeat, shuffle, order_sampler,
                         n_prefetch, 'MultiprocessIterator')

    @property
    def _chunk_size(self):
        return max(1, min(self.batch_size // self.n_processes // 2,
                          _MAX_CHUNK))

    @property
    def _capacity(self):
        # Enough tasks a worker to have every prefetched batch in the
        # workers, within the budget of task bytes a pipe holds.
        chunk = self._chunk_size
        tasks = self.n_prefetch * -(-self.batch_size // chunk)
        wanted = -(-tasks // self.n_processes) + 1
        return max(1, min(wanted, _TASK_BYTES // (chunk * _INDEX_BYTES)))

    def _submit(self, indices):
        if self._pool is None:
            self._pool = _Pool(self.dataset, self.n_processes,
                               self.maxtasksperchild, self._example_size,
                               self._chunk_size, self._capacity)
        size = self._chunk_size
        return self._pool.submit([indices[k:k + size]
                                  for k in range(0, len(indices), size)])

    def _collect(self, ids):
        pool = self._pool
        start = time.monotonic()
        warned = self.dataset_timeout is None
        while not all(i in pool.results for i in ids):
            timeout = None
            if not warned:
                timeout = max(0., start + self.dataset_timeout -
                              time.monotonic())
            pool.poll(timeout)
            if not warned and \
                    time.monotonic() - start >= self.dataset_timeout and \
                    not all(i in pool.results for i in ids):
                warnings.warn(
                    'MultiprocessIterator: a batch has taken more than '
                    'dataset_timeout={} seconds to load; still waiting'
                    .format(self.dataset_timeout),
                    MultiprocessIterator.TimeoutWarning)
                warned = True
        replies = [pool.results.pop(i) for i in ids]
        batch = []
        for reply in replies:
            if reply[0] == 'error':
                self._raise_worker_error(reply)
            if reply[0] == 'died':
                raise RuntimeError(
                    'MultiprocessIterator: worker process {} exited '
                    'unexpectedly (exit code {}) while loading examples; it '
                    'has been replaced'.format(reply[3], reply[2]))
            batch.extend(reply[2])
            if reply[3] and not self._short_warned and \
                    self.shared_mem is not None:
                self._short_warned = True
                warnings.warn(
                    'MultiprocessIterator: shared_mem={} bytes per example '
                    'is too small for an example needing about {} bytes; '
                    'such arrays are pickled through a pipe instead'.format(
                        self.shared_mem, reply[3]))
        if self._example_size is None:
            self._size_shared_memory(batch)
        return batch

    def _size_shared_memory(self, batch):
        """Make room in shared memory for examples like those of ``batch``:
        the workers restart with buffers of that size."""
        size = max(map(_array_bytes, batch), default=0)
        self._example_size = -(-size // 64) * 64
        if size:
            # The loads in flight restart in the new workers.
            self._unsubmit_pipeline()
            self._shutdown()

    @staticmethod
    def _raise_worker_error(reply):
        _, _, text, payload, type_name, message, pid = reply
        error = None
        if payload is not None:
            try:
                error = pickle.loads(payload)
            except Exception:
                error = None
        if not isinstance(error, BaseException):
            error = RuntimeError('{}: {}'.format(type_name, message))
        raise error from _WorkerTraceback(pid, text)

    def _discard(self, ids):
        if self._pool is not None:
            self._pool.forget(ids)

    def _shutdown(self):
        pool = getattr(self, '_pool', None)
        if pool is not None:
            self._pool = None
            pool.shutdown()

    def _detach_loader(self):
        self._pool = None

    def _worker_pids(self):
        return [] if self._pool is None else self._pool.pids
