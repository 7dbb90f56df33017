"""The NumPy backend: device ``@numpy``, registered like any plugin."""
import numpy

from backend_api import DeviceBase, DeviceSpecError, hookimpl

api_version = (2, 0)


class NumpyBackend:
    name = 'numpy'
    priority = 0

    def is_available(self):
        return True

    def device_count(self):
        return 1

    def get_device(self, index=0):
        if index != 0:
            raise DeviceSpecError('@numpy has one device; got index {}'
                                  .format(index))
        return _device

    def parse_device_spec(self, spec):
        if spec in ('@numpy', 'numpy', 'cpu', '@cpu'):
            return _device
        return None

    def device_from_array(self, array):
        # Exactly ndarray: subclasses belong to the backend defining them.
        return _device if type(array) is numpy.ndarray else None


class CpuDevice(DeviceBase):
    """The host CPU with NumPy arrays (Chainer's ``@numpy``)."""

    name = '@numpy'
    xp = numpy
    supported_array_types = (numpy.ndarray,)

    def __init__(self):
        self.backend = _backend

    def to_host(self, array):
        return array if type(array) is numpy.ndarray else \
            array.view(numpy.ndarray)

    def from_host(self, ndarray):
        return numpy.asarray(ndarray)

    def send_array(self, array):
        if type(array) is numpy.ndarray:
            return array
        if isinstance(array, numpy.ndarray):
            # A subclass belongs to another backend: @numpy holds plain
            # arrays (a view: host memory is shared, not copied).
            return array.view(numpy.ndarray)
        return DeviceBase.send_array(self, array)

    def is_array_supported(self, array):
        return isinstance(array, numpy.ndarray)


_backend = NumpyBackend()
_device = CpuDevice()


@hookimpl
def chainer_core_register_backends(registry):
    registry.register_backend(_backend)
