"""Kill and resume: examples/mnist/train_mnist.py is killed (SIGKILL) after
a snapshot was written, resumed with --resume or --autoload, and ends with
exactly the parameters (and optimizer, iterator and log states) of an
uninterrupted run."""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import numpy
import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SCRIPT = os.path.join(REPO, 'examples', 'mnist', 'train_mnist.py')
# The initial parameters and the first shuffle come from NumPy's global
# generator: the runs to compare start from the same seed (the resumed run
# deliberately from another one: everything it continues with comes from
# the snapshot).
RUNNER = '''
import runpy, sys
import numpy
numpy.random.seed(int(sys.argv[1]))
sys.argv = sys.argv[2:]
runpy.run_path(sys.argv[0], run_name='__main__')
'''
ARGS = ['--epoch', '5', '--unit', '50', '--frequency', '1', '--noplot',
        '--device', '@numpy']


@pytest.fixture(scope='module')
def runner(tmp_path_factory):
    path = tmp_path_factory.mktemp('runner') / 'seeded.py'
    path.write_text(RUNNER)
    return str(path)


def _command(runner, seed, out, *extra):
    return [sys.executable, runner, str(seed), SCRIPT] + ARGS + \
        ['--out', str(out)] + list(extra)


def _run(command):
    proc = subprocess.run(command, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def _snapshots(out):
    if not os.path.isdir(out):
        return []
    return sorted((n for n in os.listdir(out)
                   if n.startswith('snapshot_iter_')),
                  key=lambda n: int(n.rsplit('_', 1)[1]))


def _final(out):
    return os.path.join(out, _snapshots(out)[-1])


def _run_and_kill(command, out):
    """Start the run and SIGKILL it as soon as its first snapshot is
    complete (a snapshot is renamed into place only once written)."""
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    deadline = time.monotonic() + 300
    try:
        while not _snapshots(out):
            if proc.poll() is not None:
                raise AssertionError('the run ended before its first '
                                     'snapshot: ' + proc.stderr.read()
                                     .decode()[-3000:])
            if time.monotonic() > deadline:
                raise AssertionError('no snapshot within 300 s')
            time.sleep(0.002)
        assert proc.poll() is None, 'the run ended before it was killed'
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL


def _assert_same_state(expected_path, actual_path):
    with numpy.load(expected_path) as a, numpy.load(actual_path) as b:
        assert sorted(a.files) == sorted(b.files)
        for key in a.files:
            if key == '_snapshot_elapsed_time':
                continue
            if key == 'extensions/LogReport/_log':
                # Every logged value but the wall-clock time is the same.
                log_a = json.loads(str(a[key]))
                log_b = json.loads(str(b[key]))
                for entry in log_a + log_b:
                    entry.pop('elapsed_time')
                assert log_a == log_b
                continue
            assert a[key].dtype == b[key].dtype, key
            numpy.testing.assert_array_equal(a[key], b[key], err_msg=key)


@pytest.fixture(scope='module')
def runs(runner, tmp_path_factory):
    """An uninterrupted run, and a killed one (with a copy of its output
    folder for each way of resuming)."""
    base = tmp_path_factory.mktemp('runs')
    straight = base / 'straight'
    _run(_command(runner, 0, straight))
    killed = base / 'killed'
    _run_and_kill(_command(runner, 0, killed), str(killed))
    autoload = base / 'autoload'
    shutil.copytree(killed, autoload)
    return str(straight), str(killed), str(autoload)


def test_the_killed_run_stopped_early(runs):
    straight, killed, _ = runs
    assert len(_snapshots(straight)) == 2  # n_retains=2
    final = _snapshots(straight)[-1]
    assert final not in _snapshots(killed)
    assert _snapshots(killed)


def test_resume_from_the_snapshot_file(runner, runs):
    straight, killed, _ = runs
    snapshot = _final(killed)
    _run(_command(runner, 12345, killed, '--resume', snapshot))
    assert _snapshots(killed)[-1] == _snapshots(straight)[-1]
    _assert_same_state(_final(straight), _final(killed))


def test_resume_with_autoload(runner, runs):
    straight, _, autoload = runs
    out = _run(_command(runner, 54321, autoload, '--autoload'))
    # The resumed run goes on from the epoch after the snapshot.
    first_row = [line for line in out.splitlines()
                 if line[:1].isdigit()][0]
    assert int(first_row.split()[0]) > 1
    _assert_same_state(_final(straight), _final(autoload))


def test_the_comparison_sees_one_changed_value(runs, tmp_path):
    straight, _, _ = runs
    with numpy.load(_final(straight)) as f:
        arrays = {k: f[k] for k in f.files}
    key = next(k for k in sorted(arrays) if k.endswith('/W'))
    arrays[key].flat[0] = numpy.nextafter(arrays[key].flat[0],
                                          numpy.float32(numpy.inf))
    changed = str(tmp_path / 'changed.npz')
    numpy.savez(changed, **arrays)
    with pytest.raises(AssertionError, match=key):
        _assert_same_state(_final(straight), changed)
