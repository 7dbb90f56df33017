"""What the hooks register, checked without a GPU: every kernel is one
chainer-core declares, with its signature; the aliases; the backend; and
none of it imports CuPy."""
import inspect
import subprocess
import sys

import chainer_cuda
from chainer_core._runtime import kernels as registry
from chainer_cuda.kernels import KERNELS


class Recorder:
    def __init__(self):
        self.calls = []

    def __getattr__(self, name):
        return lambda *args: self.calls.append((name,) + args)


def test_kernels_match_the_declared_signatures():
    assert len(KERNELS) >= 38
    for name, fn in KERNELS.items():
        spec = registry.get_spec(name)
        assert spec.reference is not None, name
        assert str(inspect.signature(fn)) == spec.signature, name


def test_every_update_rule_has_a_kernel():
    updates = {s.name for s in registry.specs() if s.name.endswith('_update')}
    assert updates <= set(KERNELS)


def test_hooks():
    rec = Recorder()
    chainer_cuda.chainer_core_register_backends(rec)
    chainer_cuda.chainer_core_register_kernels(rec)
    chainer_cuda.chainer_core_device_aliases(rec)
    calls = rec.calls
    backend = calls[0][1]
    assert calls[0][0] == 'register_backend'
    assert (backend.name, backend.priority) == ('cuda', 500)
    kernels = {c[1]: c[3] for c in calls if c[0] == 'register_kernel'}
    assert kernels == KERNELS
    assert all(c[2] == 'cuda' for c in calls if c[0] == 'register_kernel')
    aliases = [c[1:] for c in calls if c[0] == 'register_alias']
    assert aliases == [(int, '@cupy:{}'), ('cuda:{}', '@cupy:{}')]
    assert chainer_cuda.api_version == (2, 0)


def test_nothing_imports_cupy():
    code = ('import sys\n'
            'import chainer_cuda, chainer_cuda.device, chainer_cuda.kernels\n'
            'from chainer_cuda.device import BACKEND\n'
            'import numpy\n'
            'assert BACKEND.device_from_array(numpy.zeros(1)) is None\n'
            'assert BACKEND.parse_device_spec("@numpy") is None\n'
            'print("cupy" in sys.modules)\n')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == 'False'
