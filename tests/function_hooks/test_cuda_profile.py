"""chainer_core.function_hooks.CUDAProfileHook: NVTX ranges per function
call; a clear error without a CUDA device."""
import sys
import types

import numpy
import pytest

import chainer_core as chainer
from chainer_core import function_hooks
import chainer_core.functions as F


def _has_cupy():
    try:
        import cupy  # NOQA
    except ImportError:
        return False
    return True


@pytest.mark.skipif(_has_cupy(), reason='CuPy is installed')
def test_without_cuda_names_what_is_missing():
    with pytest.raises(RuntimeError, match='chainer-cuda'):
        function_hooks.CUDAProfileHook()


@pytest.fixture
def fake_cupy(monkeypatch):
    """CuPy's ``nvtx`` and ``runtime`` stand-ins recording the ranges."""
    events = []
    cupy = types.ModuleType('cupy')
    cuda = types.ModuleType('cupy.cuda')
    nvtx = types.ModuleType('cupy.cuda.nvtx')
    runtime = types.ModuleType('cupy.cuda.runtime')
    nvtx.RangePush = lambda message: events.append(('push', message))
    nvtx.RangePop = lambda: events.append(('pop',))
    runtime.CUDARuntimeError = RuntimeError
    runtime.devices = 1
    runtime.getDeviceCount = lambda: runtime.devices
    cupy.cuda, cuda.nvtx, cuda.runtime = cuda, nvtx, runtime
    for name, module in [('cupy', cupy), ('cupy.cuda', cuda),
                         ('cupy.cuda.nvtx', nvtx),
                         ('cupy.cuda.runtime', runtime)]:
        monkeypatch.setitem(sys.modules, name, module)
    return events, runtime


def test_ranges_around_forward_and_backward(fake_cupy):
    events, _ = fake_cupy
    x = chainer.Variable(numpy.ones(3, numpy.float32))
    with function_hooks.CUDAProfileHook():
        y = F.sum(F.relu(x))
        y.backward()
    # Backward computations apply further functions, which get ranges of
    # their own nested inside.
    depth = 0
    for event in events:
        depth += 1 if event[0] == 'push' else -1
        assert depth >= 0
    assert depth == 0
    pushed = [e[1] for e in events if e[0] == 'push']
    assert pushed[:2] == ['ReLU.forward', 'Sum.forward']
    assert [p for p in pushed if p.endswith('.backward')][:1] == \
        ['Sum.backward']
    assert pushed.index('Sum.backward') < pushed.index('ReLU.backward')


def test_no_device(fake_cupy):
    _, runtime = fake_cupy
    runtime.devices = 0
    with pytest.raises(RuntimeError, match='CUDA device'):
        function_hooks.CUDAProfileHook()


def test_name():
    assert function_hooks.CUDAProfileHook.name == 'CUDAProfileHook'
    assert function_hooks.cuda_profile.CUDAProfileHook is \
        function_hooks.CUDAProfileHook
