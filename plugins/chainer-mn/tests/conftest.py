"""Running scripts under a real MPI launcher."""
import os
import re
import shutil
import signal
import subprocess
import sys
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, 'mpi_scripts')


def _mpiexec():
    # The launcher of the MPI wheel installed next to this Python first.
    local = os.path.join(os.path.dirname(sys.executable), 'mpiexec')
    if os.path.exists(local):
        return local
    return shutil.which('mpiexec')


def _launcher_flags(mpiexec):
    try:
        out = subprocess.run([mpiexec, '--version'], capture_output=True,
                             text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    if 'Open MPI' in out or 'OpenRTE' in out:
        flags = ['--oversubscribe']
        if hasattr(os, 'geteuid') and os.geteuid() == 0:
            flags.append('--allow-run-as-root')
        return flags
    return []


def pytest_configure(config):
    config.addinivalue_line('markers', 'mpi: launches mpiexec')
    config.addinivalue_line(
        'markers', "gpu: needs 'pure_nccl' (a CUDA GPU per process, CuPy, "
        'NCCL and chainer-cuda); skipped with the reason otherwise')


def pytest_collection_modifyitems(config, items):
    gpu_items = [item for item in items if 'gpu' in item.keywords]
    if not gpu_items:
        return
    from chainer_mn.communicators import pure_nccl_communicator
    reason = pure_nccl_communicator.unavailable_reason()
    if not reason:
        return
    skip = pytest.mark.skip(reason="no 'pure_nccl' here: " + reason)
    for item in gpu_items:
        item.add_marker(skip)


class MpiResult:
    def __init__(self, returncode, output, elapsed):
        self.returncode = returncode
        self.output = output
        self.elapsed = elapsed

    def assert_ok(self, n):
        """Exit status 0 and 'OK <rank>' from every one of ``n`` ranks."""
        assert self.returncode == 0, self.output
        assert self.ok_ranks() == list(range(n)), self.output

    def ok_ranks(self):
        """The ranks that printed 'OK <rank>' (the scripts' last line)."""
        return sorted(int(m) for m in re.findall(r'^OK (\d+)$',
                                                 self.output, re.MULTILINE))


@pytest.fixture(scope='session')
def run_mpi():
    mpiexec = _mpiexec()
    if mpiexec is None:
        pytest.skip('no mpiexec: install an MPI library '
                    '(pip install mpi4py mpich)')
    flags = _launcher_flags(mpiexec)

    def run(script, n, *args, timeout=120, env=None):
        cmd = [mpiexec, '-n', str(n)] + flags + [
            sys.executable, os.path.join(SCRIPTS, script)] + [
                str(a) for a in args]
        full_env = dict(os.environ)
        full_env.update({'OMP_NUM_THREADS': '1', 'CHAINER_DEVICE': '@numpy',
                         'PYTHONUNBUFFERED': '1'})
        full_env.update(env or {})
        start = time.monotonic()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True,
                                env=full_env, start_new_session=True)
        try:
            output, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            output, _ = proc.communicate()
            pytest.fail('{} on {} processes did not end within {} s:\n{}'
                        .format(script, n, timeout, output))
        return MpiResult(proc.returncode, output, time.monotonic() - start)

    return run
