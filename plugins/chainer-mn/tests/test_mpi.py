"""The scripts of mpi_scripts/, each run under ``mpiexec -n N``."""
import os

import numpy
import pytest

pytestmark = pytest.mark.mpi


@pytest.mark.parametrize('name,n', [
    ('flat', 2), ('flat', 3), ('naive', 2), ('naive', 3),
    ('non_cuda_aware', 2), ('dummy', 2)])
def test_communicator_methods(run_mpi, name, n):
    run_mpi('communicator_methods.py', n, name).assert_ok(n)


@pytest.mark.parametrize('name,n,dtype', [
    ('flat', 2, None), ('flat', 3, None), ('naive', 2, None),
    ('naive', 3, None), ('non_cuda_aware', 2, None),
    ('flat', 2, 'float16'), ('naive', 3, 'float16')])
def test_data_parallel_matches_one_process(run_mpi, name, n, dtype):
    args = [name] + ([dtype] if dtype else [])
    run_mpi('data_parallel.py', n, *args).assert_ok(n)


def _other_cpu_devices():
    import chainer_core
    found = []
    for spec in ('native:0', '@intel64'):
        try:
            chainer_core.get_device(spec)
        except Exception:
            continue
        found.append(spec)
    return found


@pytest.mark.parametrize('spec', _other_cpu_devices() or [
    pytest.param('none', marks=pytest.mark.skip(
        reason='no CPU backend besides NumPy is installed'))])
@pytest.mark.parametrize('name', ['flat', 'naive'])
def test_data_parallel_on_other_devices(run_mpi, name, spec):
    run_mpi('data_parallel.py', 2, name, '-', spec).assert_ok(2)


@pytest.mark.parametrize('n', [2, 3])
def test_collective_gradients(run_mpi, n):
    run_mpi('collective_grads.py', n).assert_ok(n)


def test_model_parallel_gradients(run_mpi):
    run_mpi('model_parallel.py', 2).assert_ok(2)


@pytest.mark.parametrize('n', [2, 3])
def test_datasets_evaluator_iterator(run_mpi, n):
    run_mpi('datasets_evaluator.py', n).assert_ok(n)


@pytest.mark.parametrize('n', [2, 3])
def test_multi_node_batch_normalization(run_mpi, n):
    run_mpi('mnbn.py', n).assert_ok(n)


@pytest.mark.parametrize('mode,status', [
    ('raise', 1), ('trainer', 1), ('exit', 3), ('kill', None)])
@pytest.mark.parametrize('n', [2, 3])
def test_a_failing_process_ends_the_job(run_mpi, tmp_path, mode, status, n):
    result = run_mpi('failure.py', n, mode, timeout=60,
                     env={'TMPDIR': str(tmp_path)})
    assert result.returncode != 0, result.output
    if status is not None:
        assert result.returncode == status, result.output
    assert result.elapsed < 30, result.output
    if mode in ('raise', 'trainer'):
        assert 'chainer_mn: unhandled RuntimeError on rank {} of {}'.format(
            n - 1, n) in result.output
        assert 'fails on purpose' in result.output


def test_a_caught_exit_does_not_end_the_job(run_mpi):
    run_mpi('failure.py', 2, 'caught').assert_ok(2)


def test_checkpoint_resumes_where_every_process_has_one(run_mpi, tmp_path):
    out = str(tmp_path)
    run_mpi('checkpoint.py', 2, 'full', out).assert_ok(2)
    crashed = run_mpi('checkpoint.py', 2, 'crash', out)
    assert crashed.returncode != 0, crashed.output
    assert 'crash on purpose at iteration 7' in crashed.output
    cp = os.path.join(out, 'cp')
    assert sorted(os.listdir(cp)) == [
        'run.0.4', 'run.0.6', 'run.1.4', 'run.1.6']
    # Rank 1 died before writing its snapshot of iteration 6.
    os.remove(os.path.join(cp, 'run.1.6'))
    resumed = run_mpi('checkpoint.py', 2, 'resume', out)
    resumed.assert_ok(2)
    assert resumed.output.count('resumed from iteration 4') == 2
    for rank in range(2):
        with numpy.load(os.path.join(out, 'full.{}.npz'.format(rank))) as a, \
                numpy.load(os.path.join(out, 'resume.{}.npz'.format(
                    rank))) as b:
            assert sorted(a.files) == sorted(b.files)
            for key in a.files:
                numpy.testing.assert_array_equal(a[key], b[key], key)
