"""Snapshot writers: how (and in which thread or process) snapshots are
written.

Every writer writes atomically: the file is written under a temporary
name inside a hidden temporary folder of the output folder and renamed to
its final name only once complete, so a crash (even ``SIGKILL``) leaves
either the complete new file or nothing under the final name. A leftover
temporary folder (named ``.tmp-<filename>-...``) is never mistaken for a
snapshot.

Writers run *post-save hooks* after each successful write (the snapshot
extension uses one to delete stale snapshots for ``n_retains``). A writer
that works in the background reports a failed write by raising on its next
call or in :meth:`~Writer.finalize`.
"""
import multiprocessing
import os
import queue
import shutil
import tempfile
import threading

from chainer_core.serializers import npz


def _atomic_save(filename, outdir, target, savefun, kwds):
    os.makedirs(outdir, exist_ok=True)
    tmpdir = tempfile.mkdtemp(prefix='.tmp-' + filename + '-', dir=outdir)
    try:
        tmppath = os.path.join(tmpdir, filename)
        savefun(tmppath, target, **kwds)
        if not os.path.isfile(tmppath):
            raise RuntimeError(
                'the save function {!r} did not write {} (a save function '
                'must write exactly the path it is given)'.format(
                    savefun, tmppath))
        # mkstemp-style private permissions would make snapshots unreadable
        # to other users; give the file the permissions a plain open() would.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmppath, 0o666 & ~umask)
        os.replace(tmppath, os.path.join(outdir, filename))
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


def _save_and_run_hooks(filename, outdir, target, savefun, kwds, hooks):
    _atomic_save(filename, outdir, target, savefun, kwds)
    for hook in hooks:
        hook()


def _process_context():
    # fork keeps the closure-free worker cheap (no re-import of the
    # program); where it does not exist the default context is used and
    # everything handed to the child is picklable.
    if 'fork' in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context('fork')
    return multiprocessing.get_context()


class Writer:
    """Base of snapshot writers.

    A writer is called as ``writer(filename, outdir, target)`` by the
    snapshot extension, where ``target`` is what to save (by default the
    flattened, copied state of the trainer: a dict of arrays, which
    :func:`~chainer_core.serializers.save_npz` also accepts).
    """

    def __init__(self):
        self._post_save_hooks = []

    def __call__(self, filename, outdir, target):
        raise NotImplementedError(
            '{} does not implement __call__'.format(type(self).__name__))

    def initialize(self, outdir):
        """Make the output folder."""
        os.makedirs(outdir, exist_ok=True)

    def save(self, filename, outdir, target, savefun, **kwds):
        """Write ``target`` to ``outdir/filename`` atomically with
        ``savefun(path, target, **kwds)``, then run the post-save hooks."""
        _save_and_run_hooks(filename, outdir, target, savefun, kwds,
                            list(self._post_save_hooks))

    def finalize(self):
        """Wait for pending writes (background writers)."""

    def _add_cleanup_hook(self, hook):
        """Run ``hook()`` after each successful write."""
        self._post_save_hooks.append(hook)


class SimpleWriter(Writer):
    """Write in the training thread (the call returns once the file is in
    place).

    Args:
        savefun: ``savefun(path, target, **kwds)`` (default
            :func:`~chainer_core.serializers.save_npz`).
        kwds: passed to ``savefun``.
    """

    def __init__(self, savefun=npz.save_npz, **kwds):
        super().__init__()
        self._savefun = savefun
        self._kwds = kwds

    def __call__(self, filename, outdir, target):
        self.save(filename, outdir, target, self._savefun, **self._kwds)


class StandardWriter(Writer):
    """Base of writers that write each snapshot in a new worker (a thread
    or a process, from :meth:`create_worker`). One write is in flight at a
    time: a call waits for the previous worker first.

    Args:
        savefun: ``savefun(path, target, **kwds)``.
        kwds: passed to ``savefun``.
    """

    def __init__(self, savefun=npz.save_npz, **kwds):
        super().__init__()
        self._savefun = savefun
        self._kwds = kwds
        self._worker = None
        self._filename = None

    def __call__(self, filename, outdir, target):
        self._join()
        self._filename = filename
        self._worker = self.create_worker(filename, outdir, target,
                                          **self._kwds)
        self._worker.start()

    def create_worker(self, filename, outdir, target, **kwds):
        """A started-later worker (``start()``/``join()``) writing one
        snapshot."""
        raise NotImplementedError

    def _join(self):
        worker, self._worker = self._worker, None
        if worker is None:
            return
        worker.join()
        self._check(worker)

    def _check(self, worker):
        """Raise if ``worker`` failed."""

    def finalize(self):
        self._join()


class ThreadWriter(StandardWriter):
    """Write each snapshot in a new thread (training goes on meanwhile;
    the target is copied before the call, so later updates do not leak
    into the file). A failed write raises on the next call or at the end.
    """

    def create_worker(self, filename, outdir, target, **kwds):
        errors = []
        hooks = list(self._post_save_hooks)

        def run():
            try:
                _save_and_run_hooks(filename, outdir, target, self._savefun,
                                    kwds, hooks)
            except BaseException as e:
                errors.append(e)

        thread = threading.Thread(target=run, name='snapshot-writer',
                                  daemon=False)
        thread.errors = errors
        return thread

    def _check(self, worker):
        if worker.errors:
            raise RuntimeError('writing snapshot {} failed: {}'.format(
                self._filename, worker.errors[0])) from worker.errors[0]


class ProcessWriter(StandardWriter):
    """Write each snapshot in a new process (the training process spends
    no time compressing or writing). A failed write raises on the next call
    or at the end.
    """

    def create_worker(self, filename, outdir, target, **kwds):
        return _process_context().Process(
            target=_save_and_run_hooks, name='snapshot-writer',
            args=(filename, outdir, target, self._savefun, kwds,
                  list(self._post_save_hooks)))

    def _check(self, worker):
        if worker.exitcode != 0:
            raise RuntimeError(
                'writing snapshot {} failed: the writer process exited with '
                'code {}'.format(self._filename, worker.exitcode))


class QueueWriter(Writer):
    """Base of writers with one long-lived consumer (a thread or process)
    that takes snapshots from a queue and writes them in order.

    Args:
        savefun: ``savefun(path, target)``.
        task: a callable ``task(filename, outdir, target)`` run by the
            consumer instead of the default atomic save.
    """

    def __init__(self, savefun=npz.save_npz, task=None):
        super().__init__()
        self._savefun = savefun
        self._task = task
        self._queue = None
        self._consumer = None
        self._started = False
        self._finalized = False

    def __call__(self, filename, outdir, target):
        if self._finalized:
            raise RuntimeError('{} is finalized'.format(type(self).__name__))
        if not self._started:
            self._queue = self.create_queue()
            self._consumer = self.create_consumer(self._queue)
            self._consumer.start()
            self._started = True
        self._queue.put((filename, outdir, target))

    def create_task(self, savefun):
        """The default task: an atomic save followed by the hooks."""
        return _SaveTask(savefun, list(self._post_save_hooks))

    def create_queue(self):
        raise NotImplementedError

    def create_consumer(self, q):
        raise NotImplementedError

    def finalize(self):
        if self._started and not self._finalized:
            self._queue.put(None)
            self._consumer.join()
            self._check()
        self._finalized = True

    def _check(self):
        pass


class _SaveTask:
    def __init__(self, savefun, hooks):
        self._savefun = savefun
        self._hooks = hooks

    def __call__(self, filename, outdir, target):
        _save_and_run_hooks(filename, outdir, target, self._savefun, {},
                            self._hooks)


def _consume(q, task):
    while True:
        item = q.get()
        if item is None:
            break
        task(*item)


class ThreadQueueWriter(QueueWriter):
    """Queue snapshots to one writer thread. A failed write raises at the
    end (:meth:`finalize`)."""

    def create_queue(self):
        return queue.Queue()

    def create_consumer(self, q):
        self._errors = []

        def run():
            task = self._task or self.create_task(self._savefun)
            while True:
                item = q.get()
                if item is None:
                    break
                try:
                    task(*item)
                except BaseException as e:
                    self._errors.append(e)

        return threading.Thread(target=run, name='snapshot-writer')

    def _check(self):
        if self._errors:
            raise RuntimeError('writing a snapshot failed: {}'.format(
                self._errors[0])) from self._errors[0]


class ProcessQueueWriter(QueueWriter):
    """Queue snapshots to one writer process. A failed write makes the
    process exit with an error, raised at the end (:meth:`finalize`)."""

    def create_queue(self):
        return _process_context().Queue()

    def create_consumer(self, q):
        task = self._task or self.create_task(self._savefun)
        return _process_context().Process(target=_consume, args=(q, task),
                                          name='snapshot-writer')

    def _check(self):
        if self._consumer.exitcode != 0:
            raise RuntimeError(
                'writing a snapshot failed: the writer process exited with '
                'code {}'.format(self._consumer.exitcode))
