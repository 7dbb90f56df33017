"""The MNIST examples of chainer-mn, launched as their README says."""
import json
import os

import pytest

pytestmark = pytest.mark.mpi
pytest.importorskip('sklearn', reason='the digits set ships in scikit-learn')

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
MNIST = os.path.join(REPO, 'examples', 'mnist')


def _log(out):
    with open(os.path.join(out, 'log')) as f:
        return json.load(f)


def test_data_parallel_example_trains_and_resumes(run_mpi, tmp_path):
    script = os.path.join(MNIST, 'train_mnist_data_parallel.py')
    out = str(tmp_path / 'out')
    common = ['--device', '@numpy', '--unit', '100', '--noplot', '--out',
              out, '--batchsize', '50']
    result = run_mpi(script, 2, '--epoch', '4', *common, timeout=300)
    assert result.returncode == 0, result.output
    assert 'Processes: 2' in result.output
    log = _log(out)
    assert [e['epoch'] for e in log] == [1, 2, 3, 4]
    assert log[-1]['validation/main/accuracy'] > 0.8
    assert log[-1]['main/loss'] < log[0]['main/loss']
    snapshots = sorted(f for f in os.listdir(out) if f.startswith('snap'))
    assert len(snapshots) == 2, snapshots
    iteration = snapshots[0].split('.')[0].split('_')[-1]
    assert snapshots == ['snapshot_iter_{}.rank{}'.format(iteration, r)
                         for r in range(2)]
    result = run_mpi(script, 2, '--epoch', '5', '--autoload', *common,
                     timeout=300)
    assert result.returncode == 0, result.output
    assert 'Resumed from iteration {}'.format(iteration) in result.output
    assert [e['epoch'] for e in _log(out)] == [1, 2, 3, 4, 5]


def test_data_parallel_example_names_a_missing_gpu(run_mpi, tmp_path):
    from chainer_mn.communicators import pure_nccl_communicator
    if not pure_nccl_communicator.unavailable_reason():
        pytest.skip("'pure_nccl' is available here")
    script = os.path.join(MNIST, 'train_mnist_data_parallel.py')
    result = run_mpi(script, 2, '--communicator', 'pure_nccl', '--out',
                     str(tmp_path), timeout=120)
    assert result.returncode != 0
    assert "'pure_nccl'" in result.output and 'chainer-cuda' in result.output


def test_model_parallel_example_learns(run_mpi, tmp_path):
    script = os.path.join(MNIST, 'train_mnist_model_parallel.py')
    out = str(tmp_path / 'out')
    result = run_mpi(script, 2, '--device', '@numpy', '--epoch', '4',
                     '--unit', '100', '--batchsize', '50', '--out', out,
                     timeout=300)
    assert result.returncode == 0, result.output
    log = _log(out)
    assert len(log) == 4
    assert log[-1]['validation/main/accuracy'] > 0.9


def test_model_parallel_example_needs_two_processes(run_mpi, tmp_path):
    script = os.path.join(MNIST, 'train_mnist_model_parallel.py')
    result = run_mpi(script, 3, '--out', str(tmp_path), timeout=120)
    assert result.returncode != 0
    assert 'exactly 2 processes' in result.output
