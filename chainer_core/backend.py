"""Devices and arrays (Chainer's ``chainer.backend``)."""
import numpy

from backend_api import DeviceBase as Device  # NOQA
from chainer_core._runtime.host import (  # NOQA
    device_from_array as _device_from_array, get_device, host, using_device)
from chainer_core._numpy_backend import CpuDevice  # NOQA


def _array_of(x):
    from chainer_core.variable import Variable
    return x._data if isinstance(x, Variable) else x


def get_array_module(*args):
    """The array namespace (``numpy``, ``cupy`` ...) of the given arrays.

    Variables count by their arrays; anything that is not an array is
    ignored. NumPy when no argument is a non-NumPy array.
    """
    for a in args:
        a = _array_of(a)
        if a is None or type(a) is numpy.ndarray or \
                not hasattr(a, 'shape'):
            continue
        try:
            return host.device_from_array(a).xp
        except TypeError:
            continue
    return numpy


def get_device_from_array(*arrays):
    """The device the first array (or Variable) among ``arrays`` lives on;
    ``@numpy`` when none is given or all are None."""
    for a in arrays:
        a = _array_of(a)
        if a is not None:
            return _device_from_array(a)
    return get_device('@numpy')


def _convert_arrays(x, fn):
    if isinstance(x, (list, tuple)):
        return type(x)(_convert_arrays(a, fn) for a in x)
    return None if x is None else fn(x)


def to_chx(array):
    """``array`` (or arrays nested in lists and tuples) on ``native:0``,
    this project's counterpart of ChainerX (the chainer-native plugin)."""
    device = get_device('native:0')
    return _convert_arrays(array, device.send)


def from_chx(array):
    """``array`` (or nested arrays) moved from ``native:0`` to NumPy; other
    arrays are returned as they are."""
    def convert(a):
        if not hasattr(a, 'shape'):
            raise TypeError('from_chx: expected an array, got {}'.format(
                type(a).__name__))
        if _device_from_array(a).name.startswith('native'):
            return get_device('@numpy').send(a)
        return a
    return _convert_arrays(array, convert)


def is_arrays_compatible(arrays):
    """Whether all arrays (None ignored) live on one backend."""
    types = {type(a) for a in arrays if a is not None}
    if len(types) <= 1:
        return True
    return len({host.backend_for_array(a) for a in arrays
                if a is not None}) == 1


def copyto(dst, src):
    """Copy ``src`` into ``dst`` across devices."""
    src = get_device_from_array(dst).send(src)
    if type(dst) is numpy.ndarray:
        numpy.copyto(dst, src)
    else:
        dst[...] = src


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
        device = get_device('@cupy:{}'.format(device_id))
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
        device = get_device('@intel64')
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
        return getattr(backend, 'name', None) == 'native'


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
        device = get_device_from_array(array)
    except TypeError:
        return None
    return device if isinstance(device, cls) else None
