"""snapshot and snapshot_object: save (and resume) training state."""
import glob
import os
import re
import shutil
import warnings

import numpy

from chainer_core.serializers import npz
from chainer_core.training import extension
from chainer_core.training.extensions import snapshot_writers


def _pattern_of(filename):
    """A glob and a regex (source, unanchored) matching what
    ``filename.format(trainer)`` produces, for finding earlier
    snapshots."""
    parts = re.split(r'(\{[^}]*\})', filename)
    glob_parts, regex_parts = [], []
    for part in parts:
        if part.startswith('{') and part.endswith('}'):
            glob_parts.append('*')
            regex_parts.append('(?:.+?)')
        else:
            glob_parts.append(glob.escape(part))
            regex_parts.append(re.escape(part))
    return ''.join(glob_parts), ''.join(regex_parts)


def _natural_key(name):
    return [int(t) if t.isdigit() else t for t in re.split(r'(\d+)', name)]


def _find_snapshots(filename, outdir):
    """Files of ``outdir`` named like ``filename`` formats, newest first
    (by modification time, then by the numbers in the name)."""
    pattern, regex = _pattern_of(filename)
    regex = re.compile('^' + regex + '$')
    found = []
    for path in glob.glob(os.path.join(glob.escape(outdir), pattern)):
        if not regex.match(os.path.basename(path)):
            continue
        try:
            mtime = os.stat(path).st_mtime_ns
        except FileNotFoundError:
            continue
        if os.path.isfile(path):
            found.append((mtime, _natural_key(os.path.basename(path)), path))
    found.sort(reverse=True)
    return [path for _, _, path in found]


def _remove_interrupted_writes(filename, outdir):
    """Remove what writes of snapshots named like ``filename`` leave in
    ``outdir`` when their process is killed: the writers' temporary folder
    (``.tmp-<name>-`` and tempfile.mkdtemp's 8 characters) and the
    temporary file of save_npz and save_hdf5 (``.tmp-<name>-`` and 12 hex
    digits). Nothing else is touched, whatever its name looks like."""
    _, regex = _pattern_of(filename)
    regex = re.compile(r'^\.tmp-(?:{})-(?:(?P<dir>[a-z0-9_]{{8}})|'
                       r'(?P<file>[0-9a-f]{{12}}))$'.format(regex))
    try:
        names = os.listdir(outdir)
    except FileNotFoundError:
        return
    for name in names:
        match = regex.match(name)
        if match is None:
            continue
        path = os.path.join(outdir, name)
        try:
            if os.path.islink(path):
                continue
            if match.group('dir') is not None and os.path.isdir(path):
                shutil.rmtree(path)
            elif match.group('file') is not None and os.path.isfile(path):
                os.remove(path)
        except FileNotFoundError:
            pass
        except OSError as e:
            warnings.warn('snapshot: cannot remove {}, left by an '
                          'interrupted write: {}'.format(path, e),
                          RuntimeWarning)


class _StaleSnapshotCleanup:
    """Delete all but the ``n_retains`` newest snapshots (a post-save hook;
    a plain object so that it can travel to a writer process)."""

    def __init__(self, filename, outdir, n_retains):
        self.filename = filename
        self.outdir = outdir
        self.n_retains = n_retains

    def __call__(self):
        for path in _find_snapshots(self.filename, self.outdir)[
                self.n_retains:]:
            try:
                os.remove(path)
            except FileNotFoundError:
                pass


class _SerializedState(dict):
    """The flattened state of an object (``path/key`` to array), taken at
    snapshot time. It is a dict (what Chainer's writers receive) that also
    serializes itself, so that ``save_npz(path, state)`` writes the same
    file as ``save_npz(path, obj)``."""

    def serialize(self, serializer):
        for key, value in self.items():
            serializer(key, value)


def _serialize(target):
    s = npz.DictionarySerializer()
    s.save(target)
    # Copies: a writer in another thread must not see later updates.
    return _SerializedState(
        (k, numpy.array(v, copy=True)) for k, v in s.target.items())


class _Snapshot(extension.Extension):
    trigger = 1, 'epoch'
    priority = extension.PRIORITY_SNAPSHOT

    def __init__(self, target=None, condition=None, writer=None,
                 filename='snapshot_iter_{.updater.iteration}',
                 snapshot_on_error=False, n_retains=-1, autoload=False):
        if condition is None:
            condition = _always_true
        if writer is None:
            writer = snapshot_writers.SimpleWriter()
        self._target = target
        self.filename = filename
        self.condition = condition
        self.writer = writer
        self._snapshot_on_error = snapshot_on_error
        self.n_retains = n_retains
        self.autoload = autoload
        self.loaded_from = None
        self._cleanup = None
        self._cleanup_by_writer = False

    def initialize(self, trainer):
        """Remove what interrupted writes left, load the newest readable
        snapshot (with ``autoload``) and set up the deletion of stale
        snapshots (with ``n_retains``)."""
        target = trainer if self._target is None else self._target
        outdir = trainer.out
        writer_init = getattr(self.writer, 'initialize', None)
        if writer_init is not None:
            writer_init(outdir)
        if isinstance(self.filename, str):
            _remove_interrupted_writes(self.filename, outdir)
        if self.autoload:
            self.loaded_from = self._autoload(target, outdir)
        if self.n_retains > 0 and isinstance(self.filename, str) and \
                self._cleanup is None:
            self._cleanup = _StaleSnapshotCleanup(self.filename, outdir,
                                                  self.n_retains)
            add_hook = getattr(self.writer, '_add_cleanup_hook', None)
            if add_hook is not None:
                add_hook(self._cleanup)
                self._cleanup_by_writer = True

    def _autoload(self, target, outdir):
        if not isinstance(self.filename, str):
            raise TypeError('snapshot: autoload needs filename to be a '
                            'format string, not {!r}'.format(self.filename))
        refused = []
        for path in _find_snapshots(self.filename, outdir):
            try:
                arrays = npz._read_all(path)
            except ValueError as e:
                warnings.warn('snapshot: refusing {}: {}; trying the '
                              'previous snapshot'.format(path, e),
                              RuntimeWarning)
                refused.append(path)
                continue
            npz.NpzDeserializer(arrays).load(target)
            return path
        if refused:
            raise RuntimeError(
                'snapshot: autoload found snapshots in {} but none is '
                'readable (refused: {}); remove them to start afresh'.format(
                    outdir, ', '.join(refused)))
        return None

    def on_error(self, trainer, exc, tb):
        if self._snapshot_on_error:
            self._make_snapshot(trainer)

    def __call__(self, trainer):
        if self.condition():
            self._make_snapshot(trainer)

    def _make_snapshot(self, trainer):
        target = trainer if self._target is None else self._target
        state = _serialize(target)
        filename = self.filename
        if callable(filename):
            filename = filename(trainer)
        else:
            filename = filename.format(trainer)
        self.writer(filename, trainer.out, state)
        if self._cleanup is not None and not self._cleanup_by_writer:
            self._cleanup()

    def finalize(self):
        finalize = getattr(self.writer, 'finalize', None)
        if finalize:
            finalize()


def _always_true():
    return True


def snapshot(savefun=None, filename='snapshot_iter_{.updater.iteration}', *,
             target=None, condition=None, writer=None,
             snapshot_on_error=False, n_retains=-1, autoload=False):
    """An extension saving the trainer (or ``target``), every epoch by
    default, with the lowest priority (after every other extension of the
    iteration, so a snapshot holds their updated states).

    The state is taken (flattened and copied) in the training thread at
    the call; the ``writer`` then writes it, atomically (temporary file and
    rename: a crash never leaves a partial file under a snapshot's name).
    Resuming from a snapshot (``load_npz(path, trainer)`` before
    ``trainer.run()``, or ``autoload``) continues exactly as the
    uninterrupted run would. A write cut short by a killed process leaves
    its temporaries (``.tmp-<snapshot name>-...``) in the output folder;
    the extension removes them when training starts again (with a
    format-string ``filename``, whose names it can recognise).

    Args:
        savefun: ``savefun(path, state)`` (default
            :func:`~chainer_core.serializers.save_npz`); cannot be given
            together with ``writer``.
        filename (str or callable): formatted with the trainer
            (``'snapshot_iter_{.updater.iteration}'``), or
            ``filename(trainer)``.
        target: what to save (default: the trainer).
        condition: save only when ``condition()`` is true.
        writer: a snapshot writer (default
            :class:`~chainer_core.training.extensions.snapshot_writers.SimpleWriter`;
            also ``ThreadWriter``, ``ProcessWriter``, ``ThreadQueueWriter``,
            ``ProcessQueueWriter``).
        snapshot_on_error (bool): also save when training raises.
        n_retains (int): keep only this many newest snapshots (-1: all);
            needs a format-string ``filename``.
        autoload (bool): when training starts, load the newest snapshot in
            the output folder. A snapshot that cannot be read (truncated,
            corrupted) is refused with a warning naming it and the one
            before it is used; if none is readable, RuntimeError. The
            trainer initializes this extension before the others, so they
            start from the loaded state.

    Returns:
        The extension.
    """
    if savefun is not None and writer is not None:
        raise TypeError('snapshot: savefun and writer cannot be given '
                        'together (pass savefun to the writer)')
    if writer is None:
        writer = snapshot_writers.SimpleWriter(
            savefun=npz.save_npz if savefun is None else savefun)
    return _Snapshot(target=target, condition=condition, writer=writer,
                     filename=filename, snapshot_on_error=snapshot_on_error,
                     n_retains=n_retains, autoload=autoload)


def snapshot_object(target, filename, savefun=None, **kwargs):
    """:func:`snapshot` of one object (a model, an optimizer...); the
    keyword arguments are those of :func:`snapshot`."""
    return snapshot(savefun, filename, target=target, **kwargs)
