"""Why CUDA is unavailable, each way it can be, without a GPU: CuPy not
installed, failing to import, no driver (CuPy's CUDARuntimeError), no
device. The backend then answers every question without raising, and
without importing CuPy where the answer is "no"."""
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types

import numpy
import pytest

from chainer_cuda import _probe
from chainer_cuda.device import BACKEND


class CUDARuntimeError(RuntimeError):
    """Stands for cupy_backends.cuda.api.runtime.CUDARuntimeError."""


def _fake_cupy(get_device_count):
    cupy = types.ModuleType('cupy')
    cupy.__version__ = '14.2.0'
    cupy.cuda = types.SimpleNamespace(runtime=types.SimpleNamespace(
        getDeviceCount=get_device_count))
    return cupy


@pytest.fixture
def probe(monkeypatch):
    """Runs the probe afresh with what the test put in place, and forgets
    its answer afterwards."""
    monkeypatch.setattr(_probe, '_state', None)

    def run():
        monkeypatch.setattr(_probe, '_state', None)
        return _probe.state()
    return run


def _no_driver():
    raise CUDARuntimeError('cudaErrorInsufficientDriver: CUDA driver '
                           'version is insufficient for CUDA runtime '
                           'version')


def test_cupy_not_installed(monkeypatch, probe):
    monkeypatch.setattr(importlib.util, 'find_spec',
                        lambda name, *a: None if name == 'cupy' else None)
    state = probe()
    assert not state.available and state.cupy is None
    assert 'CuPy is not installed' in state.reason
    assert 'chainer-cuda[cuda13]' in state.reason


class _BrokenCupy(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds a ``cupy`` whose import fails as CuPy's does when a CUDA
    library is missing."""

    def find_spec(self, name, path=None, target=None):
        if name == 'cupy':
            return importlib.machinery.ModuleSpec(name, self)
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        raise ImportError('libcudart.so.13: cannot open shared object file: '
                          'No such file or directory')


def test_cupy_fails_to_import(monkeypatch, probe):
    monkeypatch.delitem(sys.modules, 'cupy', raising=False)
    monkeypatch.setattr(sys, 'meta_path', [_BrokenCupy()] + sys.meta_path)
    state = probe()
    assert not state.available
    assert 'cannot be imported (ImportError: libcudart.so.13' in state.reason


def test_no_driver(monkeypatch, probe):
    monkeypatch.setattr(importlib.util, 'find_spec',
                        lambda name, *a: object())
    monkeypatch.setitem(sys.modules, 'cupy', _fake_cupy(_no_driver))
    state = probe()
    assert not state.available and state.device_count == 0
    assert state.reason.startswith('no usable CUDA driver: '
                                   'CUDARuntimeError: cudaError')
    assert BACKEND.is_available() is False
    assert BACKEND.device_count() == 0
    assert BACKEND.unavailable_reason() == state.reason
    with pytest.raises(RuntimeError, match='no usable CUDA driver'):
        _probe.require()


def test_no_device(monkeypatch, probe):
    monkeypatch.setattr(importlib.util, 'find_spec',
                        lambda name, *a: object())
    monkeypatch.setitem(sys.modules, 'cupy', _fake_cupy(lambda: 0))
    state = probe()
    assert not state.available
    assert 'sees no GPU' in state.reason


def test_available(monkeypatch, probe):
    monkeypatch.setattr(importlib.util, 'find_spec',
                        lambda name, *a: object())
    fake = _fake_cupy(lambda: 2)
    monkeypatch.setitem(sys.modules, 'cupy', fake)
    state = probe()
    assert state.available and state.device_count == 2
    assert state.reason == '' and _probe.require() is fake
    with pytest.raises(Exception, match='no such GPU'):
        BACKEND.get_device(2)


def test_the_probe_runs_once(monkeypatch, probe):
    calls = []
    monkeypatch.setattr(importlib.util, 'find_spec',
                        lambda name, *a: object())
    monkeypatch.setitem(sys.modules, 'cupy', _fake_cupy(
        lambda: calls.append(1) or 1))
    probe()
    _probe.state()
    _probe.state()
    assert calls == [1]


def test_specifiers_without_cuda(monkeypatch, probe):
    monkeypatch.setattr(importlib.util, 'find_spec',
                        lambda name, *a: object())
    monkeypatch.setitem(sys.modules, 'cupy', _fake_cupy(_no_driver))
    probe()
    # The device is named, so the core reports why it is unavailable
    # instead of an unknown specifier; nothing touches CUDA.
    device = BACKEND.parse_device_spec('@cupy:1')
    assert device.name == '@cupy:1' and device.device_id == 1
    assert device is BACKEND.parse_device_spec('@cupy:1')
    for spec in ('@numpy', 'cuda:0', '@cupy', '@cupy:x', 'native:0', 0):
        assert BACKEND.parse_device_spec(spec) is None
    with pytest.raises(RuntimeError, match='no usable CUDA driver'):
        device.xp


def test_arrays_are_not_claimed_before_cupy_is_imported(monkeypatch):
    monkeypatch.delitem(sys.modules, 'cupy', raising=False)
    assert BACKEND.device_from_array(numpy.zeros(1)) is None
    assert BACKEND.device_from_array([1.0]) is None
    assert 'cupy' not in sys.modules
