"""The ``native`` backend of chainer-core: device ``native:0`` for
chainer_native arrays, and native kernels for the ops whose signatures the
routines of chainer_native match.

Importing this module loads nothing heavy: the extension loads when the
backend is first asked whether it is available.
"""
import sys

import numpy

from backend_api import DeviceBase, hookimpl

api_version = (2, 0)

_CORE = 'chainer_native._core'


def _native():
    import chainer_native
    chainer_native._load()
    return chainer_native


class NativeBackend:
    name = 'native'
    priority = 200

    def __init__(self):
        self._error = None
        self._checked = False
        self._device = None
        self._graph = None

    def is_available(self):
        if not self._checked:
            self._checked = True
            try:
                _native()
            except Exception as e:  # a missing or broken extension
                self._error = '{}: {}'.format(type(e).__name__, e)
        return self._error is None

    def unavailable_reason(self):
        if self.is_available():
            return ''
        return 'the chainer_native extension does not load ({})'.format(
            self._error)

    def device_count(self):
        return 1 if self.is_available() else 0

    def get_graph(self):
        """Variables on native:0 keep their graph in C++."""
        if self._graph is None:
            from chainer_native._graph import NativeGraph
            self._graph = NativeGraph()
        return self._graph

    def get_device(self, index=0):
        if index != 0:
            from backend_api import DeviceSpecError
            raise DeviceSpecError('native has one device (native:0); got '
                                  'index {}'.format(index))
        if self._device is None:
            self._device = NativeDevice(self)
        return self._device

    def parse_device_spec(self, spec):
        if spec in ('native', 'native:0', '@native', '@native:0'):
            return self.get_device(0)
        return None

    def device_from_array(self, array):
        core = sys.modules.get(_CORE)
        if core is not None and type(array) is core.ndarray:
            return self.get_device(0)
        return None


def _host_array(array):
    """A NumPy view (or, for other devices' arrays, a host copy)."""
    if isinstance(array, numpy.ndarray):
        return array
    get = getattr(array, 'get', None)
    if callable(get) and hasattr(array, 'shape'):
        return get()
    return numpy.asarray(array)


class NativeDevice(DeviceBase):
    """The host CPU with chainer_native arrays; ``xp`` is the chainer_native
    module. Ops without a native kernel run their reference kernels on NumPy
    views of the same buffers."""

    name = 'native:0'

    def __init__(self, backend):
        self.backend = backend
        self.xp = _native()
        self._ndarray = self.xp.ndarray
        self._asarray = self.xp.asarray

    def send_array(self, array):
        if type(array) is self._ndarray:
            return array
        return self._asarray(_host_array(array))

    def is_array_supported(self, array):
        return type(array) is self._ndarray

    def to_numpy_view(self, array):
        return numpy.asarray(array)

    def from_numpy_view(self, array):
        return self._asarray(array)


_backend = NativeBackend()


@hookimpl
def chainer_core_register_backends(registry):
    registry.register_backend(_backend)


@hookimpl
def chainer_core_register_kernels(registry):
    from chainer_native import _kernels
    for name, fn in _kernels.kernels().items():
        registry.register_kernel(name, 'native', fn)
    from chainer_native import _graph
    for name, fn in _graph.graph_kernels().items():
        registry.register_graph_kernel(name, 'native', fn)


@hookimpl
def chainer_core_addon_info():
    from chainer_native import __version__
    return {'name': 'chainer-native', 'version': __version__,
            'summary': 'C++ ndarray with autograd in C++ (device native:0)'}
