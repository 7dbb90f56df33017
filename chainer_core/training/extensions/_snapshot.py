"""snapshot and snapshot_object: save (and resume) training state."""
import glob
import os
import re
import warnings

from chainer_core.serializers import npz
from chainer_core.training import extension


def _pattern_of(filename):
    """A glob and a regex matching what ``filename.format(trainer)``
    produces, for finding earlier snapshots."""
    parts = re.split(r'(\{[^}]*\})', filename)
    glob_parts, regex_parts = [], []
    for part in parts:
        if part.startswith('{') and part.endswith('}'):
            glob_parts.append('*')
            regex_parts.append('(.+?)')
        else:
            glob_parts.append(glob.escape(part))
            regex_parts.append(re.escape(part))
    return ''.join(glob_parts), re.compile('^' + ''.join(regex_parts) + '$')


def _natural_key(name):
    return [int(t) if t.isdigit() else t for t in re.split(r'(\d+)', name)]


class SimpleWriter:
    """Write snapshots in the training thread (atomically)."""

    def __init__(self, savefun=npz.save_npz, **kwds):
        self._savefun = savefun
        self._kwds = kwds

    def __call__(self, filename, outdir, target):
        self._savefun(os.path.join(outdir, filename), target, **self._kwds)

    def finalize(self):
        pass


class _Snapshot(extension.Extension):
    trigger = 1, 'epoch'
    priority = extension.PRIORITY_WRITER - 400  # after every other writer

    def __init__(self, target=None, condition=None, writer=None,
                 filename='snapshot_iter_{.updater.iteration}',
                 snapshot_on_error=False, n_retains=-1, autoload=False,
                 savefun=None):
        if condition is None:
            condition = _always
        if writer is None:
            writer = SimpleWriter(savefun or npz.save_npz)
        self._target = target
        self.filename = filename
        self.condition = condition
        self.writer = writer
        self._snapshot_on_error = snapshot_on_error
        self.n_retains = n_retains
        self.autoload = autoload

    def initialize(self, trainer):
        if not self.autoload:
            return
        target = trainer if self._target is None else self._target
        for path in self._existing(trainer.out):
            try:
                npz.load_npz(path, target)
                return path
            except (ValueError, KeyError) as e:
                warnings.warn('snapshot {} cannot be loaded ({}); trying '
                              'the previous one'.format(path, e))
        return None

    def _existing(self, outdir):
        """Earlier snapshots, newest first."""
        pattern, regex = _pattern_of(self.filename)
        found = [p for p in glob.glob(os.path.join(outdir, pattern))
                 if regex.match(os.path.basename(p))]
        return sorted(found, key=lambda p: (os.path.getmtime(p),
                                            _natural_key(p)), reverse=True)

    def on_error(self, trainer, exc, tb):
        if self._snapshot_on_error:
            self._make_snapshot(trainer)

    def __call__(self, trainer):
        if self.condition():
            self._make_snapshot(trainer)

    def _make_snapshot(self, trainer):
        target = trainer if self._target is None else self._target
        filename = self.filename
        if callable(filename):
            filename = filename(trainer)
        else:
            filename = filename.format(trainer)
        self.writer(filename, trainer.out, target)
        if self.n_retains > 0:
            for old in self._existing(trainer.out)[self.n_retains:]:
                try:
                    os.remove(old)
                except FileNotFoundError:
                    pass

    def finalize(self):
        finalize = getattr(self.writer, 'finalize', None)
        if finalize:
            finalize()


def _always():
    return True


def snapshot(savefun=None, filename='snapshot_iter_{.updater.iteration}', *,
             target=None, condition=None, writer=None,
             snapshot_on_error=False, n_retains=-1, autoload=False):
    """An extension saving the trainer (or ``target``) every epoch.

    Args:
        savefun: ``f(path, obj)`` (default :func:`save_npz`, atomic).
        filename (str): formatted with the trainer (``{.updater.iteration}``).
        target: what to save (default: the trainer).
        condition: save only when ``condition()`` is true.
        writer: ``writer(filename, outdir, target)``.
        snapshot_on_error (bool): also save when training raises.
        n_retains (int): keep only this many newest snapshots (-1: all).
        autoload (bool): before training, load the newest readable
            snapshot in the output folder (a corrupted one is skipped with
            a warning and the one before it is used).
    """
    return _Snapshot(target=target, condition=condition, writer=writer,
                     filename=filename, snapshot_on_error=snapshot_on_error,
                     n_retains=n_retains, autoload=autoload, savefun=savefun)


def snapshot_object(target, filename, savefun=None, **kwargs):
    """:func:`snapshot` of one object (a model, an optimizer...)."""
    return snapshot(savefun, filename, target=target, **kwargs)
