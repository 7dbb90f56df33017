"""chainer_core.backends.intel64, and GpuDevice / Intel64Device as bases
that a plugin's devices derive from."""
import numpy
import pytest

import chainer_core as chainer
from backend_api import DeviceSpecError, hookimpl
from chainer_core._runtime import kernels
from chainer_core._runtime.host import host
from chainer_core import _numpy_backend, backend
from chainer_core.backends import intel64
from chainer_core.configuration import global_config


@pytest.fixture
def fresh_host(monkeypatch):
    """Plugin discovery started afresh with the NumPy backend only (no
    installed plugin); the host and the kernels are restored afterwards."""
    saved_host = dict(host.__dict__)
    saved_impls = {s.name: dict(s.implementations) for s in kernels.specs()}
    for var in ('CHAINER_BACKENDS', 'CHAINER_DEVICE',
                'CHAINER_PLUGINS_DISABLE'):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv('CHAINER_PLUGINS_AUTOLOAD', '0')
    host.reset()
    host.add_builtin('numpy', _numpy_backend, global_config.add_key)
    yield host
    host.__dict__.clear()
    host.__dict__.update(saved_host)
    for spec in kernels.specs():
        spec.implementations.clear()
        spec.implementations.update(saved_impls.get(spec.name, {}))
    kernels._cache.clear()


def test_intel64_is_unavailable_without_the_mkldnn_backend(fresh_host):
    assert intel64.is_ideep_available() is False
    with pytest.raises(RuntimeError, match='chainer-mkldnn'):
        intel64.check_ideep_available()
    with chainer.using_config('use_ideep', 'always'):
        assert intel64.should_use_ideep('>=auto') is False
    with pytest.raises(ValueError):
        intel64.should_use_ideep('auto')
    with pytest.raises(DeviceSpecError):
        backend.Intel64Device()
    assert backend.Intel64Device.from_array(numpy.zeros(1)) is None
    assert intel64.Intel64Device is backend.Intel64Device
    assert chainer.backends.intel64 is intel64


class _MdArray(numpy.ndarray):
    """The arrays of the stand-in oneDNN backend."""


class _FakeMkldnnDevice(backend.Intel64Device):
    name = '@intel64'
    xp = numpy

    def __init__(self, backend_):
        self.backend = backend_

    def send_array(self, array):
        return numpy.asarray(array).view(_MdArray)

    def is_array_supported(self, array):
        return isinstance(array, _MdArray)


class _FakeMkldnnBackend:
    name = 'mkldnn'
    priority = 150

    def __init__(self, available=True):
        self.available = available
        self.device = _FakeMkldnnDevice(self)

    def is_available(self):
        return self.available

    def device_count(self):
        return 1

    def get_device(self, index=0):
        return self.device

    def parse_device_spec(self, spec):
        return self.device if spec == '@intel64' else None

    def device_from_array(self, array):
        return self.device if type(array) is _MdArray else None


def _register(fresh_host, backend_):
    class Plugin:
        api_version = (2, 0)

        @hookimpl
        def chainer_core_register_backends(self, registry):
            registry.register_backend(backend_)

    fresh_host.add_builtin('fake-mkldnn', Plugin())


def test_intel64_through_discovery(fresh_host):
    fake = _FakeMkldnnBackend()
    _register(fresh_host, fake)
    assert intel64.is_ideep_available() is True
    intel64.check_ideep_available()
    with chainer.using_config('use_ideep', 'never'):
        assert intel64.should_use_ideep('>=auto') is False
    with chainer.using_config('use_ideep', 'auto'):
        assert intel64.should_use_ideep('>=auto') is True
        assert intel64.should_use_ideep('==always') is False
    device = backend.Intel64Device()
    assert device is fake.device
    assert isinstance(device, backend.Intel64Device)
    array = device.send(numpy.ones(2))
    assert backend.Intel64Device.from_array(array) is device
    assert not isinstance(device, backend.GpuDevice)


def test_intel64_reports_an_unavailable_backend(fresh_host):
    _register(fresh_host, _FakeMkldnnBackend(available=False))
    assert intel64.is_ideep_available() is False


def test_base_classes_are_devices():
    assert issubclass(backend.GpuDevice, backend.Device)
    assert issubclass(backend.Intel64Device, backend.Device)
    assert not isinstance(backend.CpuDevice(), backend.GpuDevice)
