"""Snapshots: atomic writes (even when the process is killed mid-write),
n_retains, autoload (newest readable; unreadable ones refused), the
writers, and the other options."""
import os
import signal
import subprocess
import sys
import textwrap
import time
import warnings

import numpy
import pytest

import chainer_core as chainer
from chainer_core.serializers import npz
from chainer_core.testing import get_trainer_with_mock_updater
from chainer_core.training import extensions
from chainer_core.training.extensions import snapshot_writers
from tests.serializers._damage import DAMAGES, PRETENDED_MEMORY

from ._util import Regressor, make_trainer

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def _names(folder):
    return sorted(n for n in os.listdir(folder) if not n.startswith('.'))


def _iteration_of(path):
    with numpy.load(path) as f:
        return int(f['updater/iteration'])


def test_trainer_snapshot_every_epoch(tmp_path):
    trainer = make_trainer(tmp_path, stop=(3, 'epoch'))
    trainer.extend(extensions.snapshot(), trigger=(1, 'epoch'))
    trainer.run()
    assert _names(tmp_path) == ['snapshot_iter_12', 'snapshot_iter_4',
                                'snapshot_iter_8']
    assert _iteration_of(str(tmp_path / 'snapshot_iter_8')) == 8
    mode = os.stat(tmp_path / 'snapshot_iter_8').st_mode & 0o777
    umask = os.umask(0)
    os.umask(umask)
    assert mode == 0o666 & ~umask


def test_snapshot_runs_after_the_other_extensions(tmp_path):
    trainer = make_trainer(tmp_path, stop=(1, 'epoch'))
    trainer.extend(extensions.snapshot(), trigger=(1, 'epoch'))
    trainer.extend(extensions.LogReport())
    trainer.run()
    # The log entry of the epoch is in the snapshot of the epoch.
    with numpy.load(str(tmp_path / 'snapshot_iter_4')) as f:
        assert '"epoch": 1' in str(f['extensions/LogReport/_log'])


def test_n_retains(tmp_path):
    trainer = make_trainer(tmp_path, stop=(10, 'iteration'))
    trainer.extend(extensions.snapshot(n_retains=2),
                   trigger=(2, 'iteration'))
    trainer.run()
    assert _names(tmp_path) == ['snapshot_iter_10', 'snapshot_iter_8']


@pytest.mark.parametrize('writer', [
    snapshot_writers.ThreadWriter, snapshot_writers.ProcessWriter,
    snapshot_writers.ThreadQueueWriter, snapshot_writers.ProcessQueueWriter])
def test_background_writers_write_the_same_files(tmp_path, writer):
    simple_out = tmp_path / 'simple'
    trainer = make_trainer(simple_out, stop=(6, 'iteration'))
    trainer.extend(extensions.snapshot(), trigger=(3, 'iteration'))
    trainer.run()
    out = tmp_path / 'writer'
    trainer = make_trainer(out, stop=(6, 'iteration'))
    trainer.extend(extensions.snapshot(writer=writer(), n_retains=1),
                   trigger=(3, 'iteration'))
    trainer.run()
    assert _names(out) == ['snapshot_iter_6']
    assert os.listdir(out) == ['snapshot_iter_6']
    with numpy.load(str(out / 'snapshot_iter_6')) as a, \
            numpy.load(str(simple_out / 'snapshot_iter_6')) as b:
        assert sorted(a.files) == sorted(b.files)
        for key in a.files:
            if 'elapsed' not in key:
                numpy.testing.assert_array_equal(a[key], b[key], key)


class _Trainer:
    def __init__(self, out, iteration=1):
        self.out = str(out)

        class Updater:
            pass

        self.updater = Updater()
        self.updater.iteration = iteration


def test_thread_writer_saves_the_state_at_the_call(tmp_path):
    def slow_save(path, target):
        time.sleep(0.3)
        npz.save_npz(path, target)

    model = Regressor()
    original = model.fc.W.array.copy()
    ext = extensions.snapshot_object(
        model, 'model_{.updater.iteration}',
        writer=snapshot_writers.ThreadWriter(savefun=slow_save))
    trainer = _Trainer(tmp_path)
    ext.initialize(trainer)
    ext(trainer)
    model.fc.W.array[...] = 0
    ext.finalize()
    loaded = Regressor()
    npz.load_npz(str(tmp_path / 'model_1'), loaded)
    numpy.testing.assert_array_equal(loaded.fc.W.array, original)


@pytest.mark.parametrize('writer', [snapshot_writers.ThreadWriter,
                                    snapshot_writers.ProcessWriter])
def test_failed_background_write_is_raised(tmp_path, writer):
    def failing_save(path, target):
        raise OSError('disk full')

    ext = extensions.snapshot_object(
        Regressor(), 'model_{.updater.iteration}',
        writer=writer(savefun=failing_save))
    trainer = _Trainer(tmp_path)
    ext.initialize(trainer)
    ext(trainer)
    with pytest.raises(RuntimeError, match='model_1'):
        ext.finalize()
    assert _names(tmp_path) == []
    assert os.listdir(tmp_path) == []


def test_failed_write_leaves_nothing(tmp_path):
    def failing_save(path, target):
        with open(path, 'wb') as f:
            f.write(b'partial')
        raise OSError('disk full')

    ext = extensions.snapshot_object(Regressor(), 'model',
                                     savefun=failing_save)
    with pytest.raises(OSError, match='disk full'):
        ext(_Trainer(tmp_path))
    assert os.listdir(tmp_path) == []


_CRASHING_RUN = textwrap.dedent('''
    import os, signal, sys
    sys.path.insert(0, {repo!r})
    from chainer_core.serializers import npz
    from chainer_core.training import extensions
    from tests.training._util import make_trainer

    def save(path, target):
        if path.endswith('snapshot_iter_4'):
            # Write part of the file, then die without any cleanup.
            with open(path, 'wb') as f:
                f.write(b'PK\\x03\\x04' + b'\\0' * 1000)
                f.flush()
            os.kill(os.getpid(), signal.SIGKILL)
        npz.save_npz(path, target)

    trainer = make_trainer(sys.argv[1], stop=(6, 'iteration'))
    trainer.extend(extensions.snapshot(savefun=save),
                   trigger=(2, 'iteration'))
    trainer.run()
''')


def test_kill_during_a_write_keeps_the_previous_snapshot(tmp_path):
    script = tmp_path / 'run.py'
    script.write_text(_CRASHING_RUN.format(repo=REPO))
    out = tmp_path / 'out'
    proc = subprocess.run([sys.executable, str(script), str(out)],
                          capture_output=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.decode()
    # No partial file under a snapshot's name: only the complete one.
    assert _names(out) == ['snapshot_iter_2']
    assert _iteration_of(str(out / 'snapshot_iter_2')) == 2
    leftovers = [n for n in os.listdir(out) if n.startswith('.')]
    assert leftovers and all(n.startswith('.tmp-snapshot_iter_4')
                             for n in leftovers)
    trainer = make_trainer(out, stop=(6, 'iteration'))
    ext = extensions.snapshot(autoload=True)
    trainer.extend(ext, trigger=(2, 'iteration'))
    trainer.run()
    assert ext.loaded_from == str(out / 'snapshot_iter_2')
    assert trainer.updater.iteration == 6
    assert sorted(os.listdir(out)) == _names(out)


_KILLED_IN_SAVE_NPZ = textwrap.dedent('''
    import os, signal, sys
    import numpy
    sys.path.insert(0, {repo!r})
    from chainer_core.training import extensions
    from tests.training._util import make_trainer

    real = numpy.lib.format.write_array
    arrays = []

    def write_array(*args, **kwargs):
        # Die inside numpy.savez once the snapshot of iteration 4 is half
        # written, as a SIGKILL from outside would catch it.
        arrays.append(None)
        if trainer.updater.iteration == 4 and len(arrays) > 3:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(*args, **kwargs)

    numpy.lib.format.write_array = write_array
    trainer = make_trainer(sys.argv[1], stop=(6, 'iteration'))
    trainer.extend(extensions.snapshot(), trigger=(2, 'iteration'))
    trainer.extend(extensions.snapshot_object(
        trainer.updater.get_optimizer('main').target,
        'model_{{.updater.iteration}}.npz'), trigger=(2, 'iteration'))
    trainer.run()
''')


def test_leftovers_of_a_write_killed_in_save_npz_are_removed(tmp_path):
    script = tmp_path / 'run.py'
    script.write_text(_KILLED_IN_SAVE_NPZ.format(repo=REPO))
    out = tmp_path / 'out'
    proc = subprocess.run([sys.executable, str(script), str(out)],
                          capture_output=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.decode()
    assert _names(out) == ['model_2.npz', 'snapshot_iter_2']
    # The writer's folder, holding save_npz's own half-written file.
    leftovers = [n for n in os.listdir(out) if n.startswith('.')]
    assert [n[:-8] for n in leftovers] == ['.tmp-snapshot_iter_4-']
    inside = os.listdir(out / leftovers[0])
    assert len(inside) == 1 and inside[0].startswith('.tmp-snapshot_iter_4-')

    trainer = make_trainer(out, stop=(6, 'iteration'))
    ext = extensions.snapshot(autoload=True)
    trainer.extend(ext, trigger=(2, 'iteration'))
    trainer.run()
    assert ext.loaded_from == str(out / 'snapshot_iter_2')
    assert trainer.updater.iteration == 6
    assert sorted(os.listdir(out)) == _names(out)


def test_only_the_extensions_own_leftovers_are_removed(tmp_path):
    _snapshots(tmp_path, 2)
    removed = ['.tmp-snapshot_iter_4-ab_3z9k0',
               '.tmp-snapshot_iter_10-k_8z0k1m',
               '.tmp-snapshot_iter_6-0123456789ab']
    for name in removed[:2]:
        os.mkdir(tmp_path / name)
        (tmp_path / name / '.tmp-snapshot_iter_4-0123456789ab').write_bytes(
            b'PK\x03\x04')
    (tmp_path / removed[2]).write_bytes(b'PK\x03\x04')
    elsewhere = tmp_path / 'elsewhere'
    elsewhere.mkdir()
    (elsewhere / 'keep').write_text('keep')
    kept = {
        # Other names, other suffixes, a file where the writers make a
        # folder and the other way round, a link.
        '.tmp-model.npz-ab12cd34': 'dir', '.tmp-notes-ab12cd34': 'dir',
        '.tmp-snapshot_iter_4-ab12cd3': 'dir',
        '.tmp-snapshot_iter_4-ab12cd345': 'dir',
        '.tmp-snapshot_iter_4-ABCDEFGH': 'dir',
        '.tmp-snapshot_iter_4-0123456789ab': 'dir',
        '.tmp-snapshot_iter_4-ab12cd34': 'file',
        '.tmp-snapshot_iter_4-0123456789xy': 'file',
        'tmp-snapshot_iter_4-ab12cd34': 'dir',
        '.tmp-snapshot_iter_8-ab12cd34': 'link',
        'notes.txt': 'file'}
    for name, kind in kept.items():
        if kind == 'dir':
            os.mkdir(tmp_path / name)
        elif kind == 'file':
            (tmp_path / name).write_text('keep')
        else:
            os.symlink(elsewhere, tmp_path / name)
    trainer, ext, loaded = _resume(tmp_path, stop=(2, 'iteration'))
    trainer.run()
    assert loaded == [2]
    assert sorted(os.listdir(tmp_path)) == sorted(
        ['snapshot_iter_2', 'elsewhere'] + list(kept))
    assert (elsewhere / 'keep').read_text() == 'keep'


def test_leftovers_are_removed_without_autoload(tmp_path):
    leftover = tmp_path / '.tmp-model_4.npz-ab12cd34'
    leftover.mkdir()
    trainer = make_trainer(tmp_path, stop=(1, 'iteration'))
    trainer.extend(extensions.snapshot_object(
        trainer.updater.get_optimizer('main').target,
        'model_{.updater.iteration}.npz'), trigger=(2, 'iteration'))
    trainer.run()
    assert not leftover.exists()


def _never(trainer):
    return False


def _snapshots(out, iterations):
    trainer = make_trainer(out, stop=(iterations, 'iteration'))
    trainer.extend(extensions.snapshot(), trigger=(2, 'iteration'))
    trainer.run()
    return trainer


def _resume(out, stop=(8, 'iteration')):
    trainer = make_trainer(out, stop=stop, seed=1)
    ext = extensions.snapshot(autoload=True)
    loaded = []
    trainer.extend(ext, trigger=(2, 'iteration'))
    trainer.extend(lambda t: loaded.append(t.updater.iteration),
                   name='start', trigger=_never, call_before_training=True)
    return trainer, ext, loaded


def test_autoload_takes_the_newest(tmp_path):
    straight = make_trainer(tmp_path / 'straight', stop=(8, 'iteration'))
    straight.run()
    _snapshots(tmp_path / 'out', 6)
    trainer, ext, loaded = _resume(tmp_path / 'out')
    trainer.run()
    assert loaded == [6]
    assert ext.loaded_from == str(tmp_path / 'out' / 'snapshot_iter_6')
    numpy.testing.assert_array_equal(
        trainer.updater.get_optimizer('main').target.fc.W.array,
        straight.updater.get_optimizer('main').target.fc.W.array)


def test_autoload_without_snapshots_starts_afresh(tmp_path):
    trainer, ext, loaded = _resume(tmp_path)
    trainer.run()
    assert loaded == [0] and ext.loaded_from is None


@pytest.mark.parametrize('damage', sorted(DAMAGES))
def test_autoload_refuses_a_damaged_newest_snapshot(tmp_path, damage,
                                                    monkeypatch):
    monkeypatch.setattr(npz, '_physical_memory', lambda: PRETENDED_MEMORY)
    _snapshots(tmp_path, 6)
    newest = tmp_path / 'snapshot_iter_6'
    data, _ = DAMAGES[damage](newest.read_bytes(), tmp_path / 'ran')
    newest.write_bytes(data)
    os.utime(newest, (time.time() + 10, time.time() + 10))
    trainer, ext, loaded = _resume(tmp_path)
    with pytest.warns(RuntimeWarning,
                      match='refusing .*snapshot_iter_6.*not a readable'):
        trainer.run()
    assert loaded == [4]
    assert ext.loaded_from == str(tmp_path / 'snapshot_iter_4')
    assert not (tmp_path / 'ran').exists()


def test_autoload_with_no_readable_snapshot_is_an_error(tmp_path):
    _snapshots(tmp_path, 4)
    for name in _names(tmp_path):
        (tmp_path / name).write_bytes(b'garbage')
    trainer, _, _ = _resume(tmp_path)
    with pytest.warns(RuntimeWarning, match='refusing'):
        with pytest.raises(RuntimeError, match='none is readable'):
            trainer.run()


def test_autoload_ignores_other_files(tmp_path):
    _snapshots(tmp_path, 4)
    (tmp_path / 'notes.txt').write_text('notes')
    (tmp_path / 'log').write_text('[]')
    os.mkdir(tmp_path / 'snapshot_iter_99')
    trainer, ext, loaded = _resume(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        trainer.run()
    assert loaded == [4]


def test_autoload_is_initialized_before_the_other_extensions(tmp_path):
    def make(stop):
        trainer = make_trainer(tmp_path, stop=stop)
        trainer.extend(extensions.ExponentialShift('lr', 0.5))
        trainer.extend(extensions.snapshot(autoload=True),
                       trigger=(3, 'iteration'))
        return trainer

    make((3, 'iteration')).run()
    seen = []
    trainer = make((5, 'iteration'))
    trainer.extend(lambda t: seen.append(
        t.updater.get_optimizer('main').lr), name='lr',
        call_before_training=True, trigger=_never)
    trainer.run()
    assert seen == [pytest.approx(0.05 * 0.5 ** 3)]
    assert trainer.updater.get_optimizer('main').lr == \
        pytest.approx(0.05 * 0.5 ** 5)


def test_snapshot_object_condition_and_callable_filename(tmp_path):
    trainer = make_trainer(tmp_path, stop=(4, 'iteration'))
    model = trainer.updater.get_optimizer('main').target
    flags = iter([False, True, False, True])
    trainer.extend(extensions.snapshot_object(
        model, lambda t: 'model_at_{}.npz'.format(t.updater.iteration),
        condition=lambda: next(flags)), trigger=(1, 'iteration'))
    trainer.run()
    assert _names(tmp_path) == ['model_at_2.npz', 'model_at_4.npz']
    loaded = Regressor()
    npz.load_npz(str(tmp_path / 'model_at_4.npz'), loaded)
    numpy.testing.assert_array_equal(loaded.fc.W.array, model.fc.W.array)


def test_snapshot_on_error(tmp_path):
    def fail(trainer):
        if trainer.updater.iteration == 3:
            raise ValueError('stop here')

    trainer = make_trainer(tmp_path, stop=(10, 'iteration'))
    trainer.extend(fail)
    trainer.extend(extensions.snapshot(snapshot_on_error=True,
                                       filename='crash_{.updater.iteration}'),
                   trigger=(100, 'iteration'))
    with pytest.raises(ValueError, match='stop here'):
        trainer.run(show_loop_exception_msg=False)
    assert _names(tmp_path) == ['crash_3']


def test_snapshot_arguments():
    with pytest.raises(TypeError, match='savefun and writer'):
        extensions.snapshot(savefun=npz.save_npz,
                            writer=snapshot_writers.SimpleWriter())
    assert extensions.snapshot().priority == chainer.training.PRIORITY_SNAPSHOT
    assert extensions.snapshot().trigger == (1, 'epoch')


def test_savefun_must_write_its_path(tmp_path):
    ext = extensions.snapshot_object(Regressor(), 'model',
                                     savefun=lambda path, obj: None)
    with pytest.raises(RuntimeError, match='did not write'):
        ext(_Trainer(tmp_path))


def test_mock_trainer_snapshot(tmp_path):
    trainer = get_trainer_with_mock_updater((3, 'iteration'),
                                            out=str(tmp_path))
    trainer.extend(extensions.snapshot(filename='s'),
                   trigger=(3, 'iteration'))
    trainer.run()
    assert _iteration_of(str(tmp_path / 's')) == 3
