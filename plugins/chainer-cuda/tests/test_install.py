"""chainer-cuda pip-installed next to chainer-core in a fresh environment
without CuPy: it installs, reports itself unavailable with the reason
(``info`` shows it), never imports CuPy during discovery, and leaves the
NumPy device the default without a warning. A stand-in CuPy whose driver
check fails (as CuPy's does on a machine without a CUDA driver) gives the
driver's error as the reason, and every GPU test skips with it."""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import textwrap
import venv

import pytest

PLUGIN = pathlib.Path(__file__).resolve().parents[1]
REPO = PLUGIN.parents[1]

CHECK = '''
import json, sys, warnings
warnings.simplefilter('error')
import chainer_core as chainer
from chainer_core.backends import cuda
default = chainer.get_device().name
import chainer_cuda
errors = {}
for spec in ('@cupy:0', 0, 'cuda:0', '0'):
    try:
        chainer.get_device(spec)
    except Exception as e:
        errors[str(spec)] = '{}: {}'.format(type(e).__name__, e)
try:
    cuda.to_gpu([1.0])
except RuntimeError as e:
    errors['to_gpu'] = str(e)
print(json.dumps({
    'default': default,
    'cupy_imported': 'cupy' in sys.modules,
    'available': chainer_cuda.is_available(),
    'reason': chainer_cuda.unavailable_reason(),
    'errors': errors,
}))
'''

# A CuPy that imports (with what chainer_core.backends.cuda takes from it)
# but finds no driver, as CuPy does on a machine without one.
FAKE_CUPY = {
    'cupy/__init__.py': '''
from cupy import cuda  # NOQA

__version__ = '14.2.0'


class ndarray:
    pass


def memoize(for_each_device=False):
    return lambda f: f


def clear_memo():
    pass


def fuse(*args, **kwargs):
    return lambda f: f
''',
    'cupy/cuda/__init__.py': '''
class CUDARuntimeError(RuntimeError):
    pass


def _no_driver(*args, **kwargs):
    raise CUDARuntimeError('cudaErrorInsufficientDriver: CUDA driver version '
                           'is insufficient for CUDA runtime version')


class runtime:
    getDeviceCount = staticmethod(_no_driver)
    getDevice = staticmethod(_no_driver)


class Device:
    def __init__(self, device=None):
        self.id = runtime.getDevice() if device is None else device


class Event:
    pass


class Stream:
    pass
''',
}


class Env:
    def __init__(self, root):
        venv.create(root, with_pip=True)
        self.python = str(root / 'bin' / 'python')
        self.cwd = root.parent
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith('CHAINER_')
                    and k not in ('PYTHONPATH', 'PYTHONHOME', 'VIRTUAL_ENV')}

    def run(self, *args, check=True, **env):
        proc = subprocess.run([self.python] + list(args),
                              env=dict(self.env, **env), cwd=str(self.cwd),
                              capture_output=True, text=True, timeout=600)
        if check:
            assert proc.returncode == 0, proc.stdout + proc.stderr
        return proc


def _copy(src, dst):
    # pip builds in the folder it is given: copies keep the checkout clean.
    return shutil.copytree(src, dst, ignore=shutil.ignore_patterns(
        'build', '*.egg-info', '__pycache__', '.venv*', '.git', 'tests',
        'plugins', 'examples', 'bench', 'docs', '.pytest_cache', 'wheels'))


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == 'win32', reason='POSIX paths')
def test_installs_and_reports_why_without_cupy(tmp_path):
    core = _copy(REPO, tmp_path / 'core')
    plugin = _copy(PLUGIN, tmp_path / 'chainer-cuda')
    env = Env(tmp_path / 'venv')
    env.run('-m', 'pip', 'install', '--quiet', str(core), str(plugin),
            'pytest')
    assert env.run('-c', 'import cupy', check=False).returncode != 0

    result = json.loads(env.run('-c', CHECK).stdout.splitlines()[-1])
    assert result['default'] == '@numpy'
    assert result['cupy_imported'] is False
    assert result['available'] is False
    assert 'CuPy is not installed' in result['reason']
    for spec in ('@cupy:0', '0', 'cuda:0'):
        assert 'CuPy is not installed' in result['errors'][spec], spec
    assert 'chainer-cuda' in result['errors']['to_gpu']

    info = json.loads(env.run('-m', 'chainer_core', 'info', '--json').stdout)
    text = json.dumps(info)
    assert 'chainer-cuda' in text and 'CuPy is not installed' in text
    assert 'CuPy is not installed' in env.run(
        '-m', 'chainer_core', 'info').stdout

    # A CuPy that imports but finds no driver.
    fake = tmp_path / 'fake'
    for name, text in FAKE_CUPY.items():
        (fake / name).parent.mkdir(parents=True, exist_ok=True)
        (fake / name).write_text(textwrap.dedent(text))
    result = json.loads(env.run('-c', CHECK, PYTHONPATH=str(fake))
                        .stdout.splitlines()[-1])
    assert result['default'] == '@numpy' and not result['available']
    assert result['reason'].startswith(
        'no usable CUDA driver: CUDARuntimeError: cudaErrorInsufficient')
    assert 'no usable CUDA driver' in result['errors']['@cupy:0']
    assert 'no usable CUDA driver' in env.run(
        '-m', 'chainer_core', 'info', PYTHONPATH=str(fake)).stdout

    # The plugin's own tests: the GPU ones skip, with the reason.
    tests = shutil.copytree(PLUGIN / 'tests', tmp_path / 'tests')
    proc = env.run('-m', 'pytest', '-q', '-rs', '-p', 'no:cacheprovider',
                   '-m', 'gpu', str(tests), check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert ' passed' not in proc.stdout and 'failed' not in proc.stdout
    assert 'no usable GPU here: CuPy is not installed' in proc.stdout
