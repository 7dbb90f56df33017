"""create_multi_node_checkpointer: per-process snapshots, resumed where
every process has one."""
import os
import re
import time
import zipfile
import zlib

import numpy

from chainer_core import serializers
from chainer_core.serializers import npz
from chainer_core.training import extension


def create_multi_node_checkpointer(name, comm, cp_interval=5, gc_interval=5,
                                   path=None):
    """An extension that snapshots the trainer on every process.

    Each process writes its own state (its model replica, optimizer and,
    above all, its iterator's position in its part of the data) to
    ``<path>/<name>.<rank>.<iteration>``, atomically. To resume, call
    ``checkpointer.maybe_load(trainer, optimizer)`` before
    ``trainer.run()``: the processes agree on the newest iteration for
    which *every* process has a readable snapshot and all load that one,
    so a job killed while some processes had written their snapshot of an
    iteration and others had not resumes consistently.

    ::

        checkpointer = create_multi_node_checkpointer(name='run1', comm=comm)
        checkpointer.maybe_load(trainer, optimizer)
        trainer.extend(checkpointer, trigger=(100, 'iteration'))
        trainer.run()

    Snapshots are temporary: the newest ``cp_interval`` (common to all
    processes) are kept, older ones are deleted every ``gc_interval``
    snapshots, and all are deleted when training ends without an error.

    Args:
        name (str): identifies the run (part of the file names).
        comm: a chainer_mn communicator.
        cp_interval (int): the number of snapshots kept.
        gc_interval (int): delete old snapshots every this many snapshots.
        path (str): the folder (default: the trainer's ``out``).

    Returns:
        The checkpointer extension.
    """
    return _MultiNodeCheckpointer(name, comm, cp_interval, gc_interval, path)


class _MultiNodeCheckpointer(extension.Extension):

    trigger = 1, 'iteration'
    priority = extension.PRIORITY_SNAPSHOT

    def __init__(self, name, comm, cp_interval, gc_interval, path):
        if not isinstance(name, str) or not name or '.' in name or \
                os.sep in name:
            raise ValueError('create_multi_node_checkpointer: name must be a '
                             'non-empty string without "." or "{}", got '
                             '{!r}'.format(os.sep, name))
        for arg, value in (('cp_interval', cp_interval),
                           ('gc_interval', gc_interval)):
            if not isinstance(value, int) or value < 1:
                raise ValueError('create_multi_node_checkpointer: {} must be '
                                 'a positive int, got {!r}'.format(arg, value))
        # ``name`` is also the extension's name in the trainer (which may
        # rename it), so the file names use a copy of the run's name.
        self.name = name
        self._run_name = name
        self._pattern = re.compile(r'^{}\.(\d+)\.(\d+)$'.format(
            re.escape(name)))
        self.comm = comm
        self.cp_interval = cp_interval
        self.gc_interval = gc_interval
        self.path = path
        self.files = []
        self._saves_since_gc = 0
        self._failed = False
        self._durations = []

    # -- saving ----------------------------------------------------------

    def __call__(self, trainer):
        if self.path is None:
            self.path = trainer.out
        self.save(trainer, trainer.updater.iteration)

    def _filename(self, iteration, rank=None):
        return '{}.{}.{}'.format(self._run_name,
                                 self.comm.rank if rank is None else rank,
                                 iteration)

    def save(self, target, iteration):
        """Snapshot ``target`` (the trainer, or any serializable object) as
        of ``iteration``. Every process must call it at the same
        iterations (deleting old snapshots is collective)."""
        if self.path is None:
            raise RuntimeError('checkpointer: no folder to save into; pass '
                               'path= when using it without a trainer')
        os.makedirs(self.path, exist_ok=True)
        start = time.perf_counter()
        serializers.save_npz(os.path.join(self.path, self._filename(
            iteration)), target)
        self._durations.append(time.perf_counter() - start)
        if iteration not in self.files:
            self.files.append(iteration)
        self._saves_since_gc += 1
        if self._saves_since_gc >= self.gc_interval and \
                len(self.files) > self.cp_interval:
            self._collect_garbage()

    def _collect_garbage(self):
        common = self._common(self.files)
        keep = set(common[-self.cp_interval:])
        for iteration in self.files:
            if iteration not in keep:
                self._remove(iteration)
        self.files = sorted(keep)
        self._saves_since_gc = 0

    def _remove(self, iteration):
        try:
            os.remove(os.path.join(self.path, self._filename(iteration)))
        except FileNotFoundError:
            pass

    def _common(self, iterations):
        """The iterations (sorted) every process has."""
        every = self.comm.allgather_obj(sorted(set(iterations)))
        common = set(every[0])
        for its in every[1:]:
            common &= set(its)
        return sorted(common)

    # -- resuming --------------------------------------------------------

    def _local_iterations(self):
        try:
            names = os.listdir(self.path)
        except FileNotFoundError:
            return []
        found = []
        for n in names:
            m = self._pattern.match(n)
            if m and int(m.group(1)) == self.comm.rank:
                found.append(int(m.group(2)))
        return sorted(found)

    def _read(self, iteration):
        """Every array of this process's snapshot of ``iteration``, or
        None when it cannot be read."""
        path = os.path.join(self.path, self._filename(iteration))
        try:
            with numpy.load(path, allow_pickle=False) as f:
                return {k: f[k] for k in f.files}
        except (OSError, ValueError, EOFError, KeyError, zlib.error,
                zipfile.BadZipFile):
            return None

    def maybe_load(self, trainer, optimizer=None, path=None):
        """Load the newest snapshot every process has (and can read), if
        any; collective.

        Args:
            trainer: the trainer (or the object given to :meth:`save`).
            optimizer: a multi-node optimizer, told that the processes are
                in sync so that its next update does not broadcast rank 0's
                parameters. When None and ``trainer`` is a trainer, the
                multi-node optimizers of its updater are told.
            path (str): the folder (default: as given at creation, else
                the trainer's ``out``).

        Returns:
            int or None: the iteration resumed from.
        """
        if path is not None:
            self.path = path
        elif self.path is None:
            self.path = trainer.out
        candidates = self._common(self._local_iterations())
        loaded = None
        while candidates:
            iteration = candidates[-1]
            arrays = self._read(iteration)
            readable = self.comm.allgather_obj(arrays is not None)
            if all(readable):
                npz.NpzDeserializer(arrays).load(trainer)
                loaded = iteration
                break
            candidates.pop()
        self.files = self._local_iterations()
        if loaded is not None:
            self._mark_synchronized(trainer, optimizer)
        return loaded

    @staticmethod
    def _mark_synchronized(trainer, optimizer):
        if optimizer is not None:
            optimizers = [optimizer]
        else:
            updater = getattr(trainer, 'updater', None)
            optimizers = [] if updater is None else \
                list(updater.get_all_optimizers().values())
        for opt in optimizers:
            mark = getattr(opt, 'mark_synchronized', None)
            if mark is not None:
                mark()

    # -- the end ---------------------------------------------------------

    def on_error(self, trainer, exc, tb):
        self._failed = True

    def finalize(self):
        """Delete this process's snapshots if training ended without an
        error (no communication: it runs even when another process
        failed)."""
        if self._failed or self.path is None:
            return
        for iteration in self.files:
            self._remove(iteration)
        self.files = []

    def get_stats(self):
        """A line on the time spent writing snapshots."""
        d = self._durations
        if not d:
            return 'No stats available'
        return ('Snapshot duration stats (sec): avg={:f}, min={:f}, '
                'max={:f}'.format(sum(d) / len(d), min(d), max(d)))
