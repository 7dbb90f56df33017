"""Chainer's names that mention a backend, in one place.

Chainer code names devices by backend: ``to_gpu(0)``, integer device ids,
``'@intel64'``, ``Intel64Device()``, ChainerX. Those spellings are resolved
here to the specifiers of the plugins that serve them, and the device base
classes of Chainer's ``chainer.backend`` live here, so that the rest of the
core names no backend. Plugins claim the spellings they serve through the
``chainer_core_device_aliases`` hook (integers ``N >= 0`` by the GPU
plugin); the table below only says what to install when nobody does.
"""
import numbers

from backend_api import DeviceBase as Device
from chainer_core._runtime.host import device_from_array, get_device, host

# Chainer's spelling (the part before ':') -> the plugin that serves it.
PROVIDERS = {'cupy': 'chainer-cuda', 'cuda': 'chainer-cuda',
             'intel64': 'chainer-mkldnn', 'native': 'chainer-native'}
INTEL64 = '@intel64'
CHAINERX = 'native:0'
_CHAINERX_BACKEND = 'native'


host.add_compat_spellings(PROVIDERS, '@cupy:{}')


def gpu(device=None):
    """The device ``to_gpu(device)`` means: GPU 0 when omitted; an integer
    as ``get_device`` reads it (the plugin claiming integers, else
    ``'@cupy:N'``); any other specifier as it is."""
    if device is None:
        return 0
    if isinstance(device, numbers.Integral) and not isinstance(device, bool):
        return int(device)
    return device


def is_chainerx(device):
    """Whether ``device`` takes ChainerX's place (chainer-native)."""
    return getattr(device.backend, 'name', None) == _CHAINERX_BACKEND


def _convert_arrays(x, fn):
    if isinstance(x, (list, tuple)):
        return type(x)(_convert_arrays(a, fn) for a in x)
    return None if x is None else fn(x)


def _array_of(x):
    from chainer_core.variable import Variable
    return x._data if isinstance(x, Variable) else x


def to_chx(array):
    """``array`` (or arrays nested in lists and tuples) on ``native:0``,
    this project's counterpart of ChainerX (the chainer-native plugin)."""
    device = get_device(CHAINERX)
    return _convert_arrays(array, device.send)


def from_chx(array):
    """``array`` (or nested arrays) moved from ``native:0`` to NumPy; other
    arrays are returned as they are."""
    def convert(a):
        if not hasattr(a, 'shape'):
            raise TypeError('from_chx: expected an array, got {}'.format(
                type(a).__name__))
        if is_chainerx(device_from_array(a)):
            return get_device('@numpy').send(a)
        return a
    return _convert_arrays(array, convert)


class _ResolvedByDiscovery(type):
    """Calling one of the core's device base classes itself (as Chainer
    code does: ``Intel64Device()``, ``GpuDevice(cupy_device)``) returns the
    device the installed plugin provides; the plugins' subclasses construct
    as usual."""

    def __call__(cls, *args, **kwargs):
        resolve = cls.__dict__.get('_resolve')
        if resolve is not None:
            return resolve.__func__(cls, *args, **kwargs)
        return super().__call__(*args, **kwargs)


class GpuDevice(Device, metaclass=_ResolvedByDiscovery):
    """A CUDA GPU with CuPy arrays (Chainer's ``chainer.backend.GpuDevice``).

    The core has no GPU support of its own. This class is the base of the
    device class of the CUDA backend plugin (chainer-cuda), so that
    ``isinstance(device, GpuDevice)`` holds for a GPU device whichever
    plugin made it; the plugin sets ``device`` (the ``cupy.cuda.Device``).
    ``GpuDevice(cupy_device)`` and the class methods find devices through
    plugin discovery.
    """

    device = None

    @classmethod
    def _resolve(cls, device):
        return cls.from_device_id(getattr(device, 'id', device))

    @classmethod
    def from_device_id(cls, device_id):
        """The GPU device ``'@cupy:<device_id>'`` (an error when no
        installed backend provides it)."""
        device_id = int(device_id)
        if device_id < 0:
            raise ValueError('GpuDevice.from_device_id: a GPU id must be '
                             'non-negative, got {}'.format(device_id))
        device = get_device(gpu(device_id))
        if not isinstance(device, cls):
            raise TypeError('the device {} of backend {!r} is not a {}'
                            .format(device.name, device.backend.name,
                                    cls.__name__))
        return device

    @classmethod
    def from_array(cls, array):
        """The GPU device holding ``array``, or None if it is not on one."""
        return _device_of_class(cls, array)


class Intel64Device(Device, metaclass=_ResolvedByDiscovery):
    """The CPU with oneDNN (MKL-DNN) kernels (Chainer's
    ``chainer.backend.Intel64Device``, specifier ``'@intel64'``).

    The core does not use oneDNN itself. This class is the base of the
    device class of the oneDNN backend plugin (chainer-mkldnn, backend name
    ``'mkldnn'``), so that ``isinstance(device, Intel64Device)`` holds for
    its devices. ``Intel64Device()`` and the class methods find the device
    through plugin discovery.
    """

    @classmethod
    def _resolve(cls):
        return cls.get()

    @classmethod
    def get(cls):
        """The ``'@intel64'`` device (an error when no installed backend
        provides it)."""
        device = get_device(INTEL64)
        if not isinstance(device, cls):
            raise TypeError('the device {} of backend {!r} is not an {}'
                            .format(device.name, device.backend.name,
                                    cls.__name__))
        return device

    @classmethod
    def from_array(cls, array):
        """The device holding ``array`` if it is an Intel64Device, else
        None."""
        return _device_of_class(cls, array)


class _NativeDeviceCheck(type):
    # ChainerX's place is taken by the chainer-native plugin, whose device
    # class does not derive from this one: membership is by backend.

    def __instancecheck__(cls, obj):
        backend = getattr(obj, 'backend', None)
        return getattr(backend, 'name', None) == _CHAINERX_BACKEND


class ChainerxDevice(Device, metaclass=_NativeDeviceCheck):
    """Chainer's ChainerX device: here a device of the chainer-native
    plugin (``'native:N'``), its counterpart. ``ChainerxDevice(spec)``
    returns that device."""

    def __new__(cls, device):
        return get_device(getattr(device, 'name', device))

    @staticmethod
    def from_array(array):
        """The native device holding ``array``, or None."""
        return _device_of_class(ChainerxDevice, array)


def _device_of_class(cls, array):
    try:
        device = device_from_array(_array_of(array))
    except TypeError:
        return None
    return device if isinstance(device, cls) else None
