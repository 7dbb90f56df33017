"""The 'pure_nccl' communicator: its script under mpiexec, on GPUs (marked
``gpu``) and on the host stand-in of mpi_scripts/_host_nccl.py (runs
everywhere)."""
import pytest

from chainer_mn.communicators import pure_nccl_communicator

pytestmark = pytest.mark.mpi


@pytest.mark.parametrize('n', [1, 2, 3])
def test_pure_nccl_logic_on_the_host_stand_in(run_mpi, n):
    run_mpi('pure_nccl.py', n, 'host').assert_ok(n)


def _gpu_processes():
    """One process per GPU, two at most (NCCL cannot put two ranks on one
    GPU): ``mpiexec -n 1`` on a machine with one GPU."""
    import cupy
    return min(cupy.cuda.runtime.getDeviceCount(), 2)


@pytest.mark.gpu
def test_pure_nccl_on_gpus(run_mpi):
    n = _gpu_processes()
    run_mpi('pure_nccl.py', n, 'gpu', timeout=300).assert_ok(n)


@pytest.mark.parametrize('intra_rank,intra_size,count,expected', [
    (0, 1, 1, 0), (1, 2, 2, 1), (3, 4, 8, 3),
    # A launcher that shows each process its own single GPU.
    (1, 2, 1, 0)])
def test_choose_device(intra_rank, intra_size, count, expected):
    assert pure_nccl_communicator.choose_device(
        intra_rank, intra_size, count) == expected


def test_choose_device_needs_a_gpu_per_process():
    with pytest.raises(ValueError, match='one GPU per process: 4 processes '
                       'on this machine but 2 GPUs'):
        pure_nccl_communicator.choose_device(3, 4, 2)
