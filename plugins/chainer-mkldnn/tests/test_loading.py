"""Loading libdnnl, and what happens when it cannot be loaded."""
import os
import subprocess
import sys

from chainer_mkldnn import _native


def test_library_found_through_the_runtime_distribution(device):
    path = _native._preload_dnnl()
    assert os.path.exists(path) and 'libdnnl.so' in str(path)


def _run(code):
    env = dict(os.environ)
    env.pop('CHAINER_DEVICE', None)
    env.pop('CHAINER_BACKENDS', None)
    return subprocess.run([sys.executable, '-c', code], env=env,
                          capture_output=True, text=True, timeout=120)


def test_unloadable_library_leaves_the_backend_unavailable():
    code = '''
import warnings
warnings.simplefilter("error")
from chainer_mkldnn import _native
_native.set_load_error("libdnnl.so.3: cannot open shared object file")
import chainer_core
from backend_api import DeviceSpecError
print("default", chainer_core.get_device())
try:
    chainer_core.get_device("@intel64")
except DeviceSpecError as e:
    print("error", e)
'''
    proc = _run(code)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith('default ') and '@intel64' not in lines[0]
    assert lines[1].startswith('error ')
    assert 'libdnnl.so.3: cannot open shared object file' in lines[1]


def test_import_loads_no_native_library():
    code = '''
import chainer_mkldnn, sys
print("chainer_mkldnn._C" in sys.modules)
print(any("libdnnl" in line for line in open("/proc/self/maps")))
'''
    proc = _run(code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ['False', 'False']
