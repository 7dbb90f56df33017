"""oneDNN (MKL-DNN) kernels for chainer-core: the ``@intel64`` device.

Arrays on ``@intel64`` are :class:`mdarray`, a subclass of
``numpy.ndarray``: every op without a oneDNN kernel runs its NumPy
reference on them, and plain NumPy arrays stay on ``@numpy``. As in
Chainer v7, oneDNN is used only when ``chainer.config.use_ideep`` is
``'auto'`` (oneDNN where it supports the dtype and shape, the reference
elsewhere) or ``'always'`` (as ``'auto'``, plus the few kernels where
oneDNN is not faster); with the default ``'never'`` every op on
``@intel64`` runs its NumPy reference.

Importing this module loads no native library; ``libdnnl`` loads when the
backend is first used.
"""
import platform

import numpy

from backend_api import hookimpl

__version__ = '0.1.0'
api_version = (2, 0)

BACKEND_NAME = 'mkldnn'
DEVICE_NAME = '@intel64'
_SPECS = frozenset(('@intel64', 'intel64', 'mkldnn', 'mkldnn:0'))


class mdarray(numpy.ndarray):
    """An array on the ``@intel64`` device.

    Holds its data in NumPy's plain layout, so every NumPy operation works
    on it. Ufuncs and array methods return ``mdarray``; so does every
    function of the device's ``xp`` (NumPy's own functions such as
    ``numpy.concatenate`` return plain arrays, which are on ``@numpy``).
    ``numpy.asarray(a)`` gives a plain ``ndarray`` view of the same memory.
    """


class MkldnnBackend:
    """The oneDNN backend (``'mkldnn'``, priority 150): one device,
    ``@intel64``."""

    name = BACKEND_NAME
    priority = 150

    def __init__(self):
        self._device = None

    def is_available(self):
        return _native.load_error() is None

    def unavailable_reason(self):
        return _native.load_error() or ''

    def device_count(self):
        return 1 if self.is_available() else 0

    def get_device(self, index=0):
        if index != 0:
            raise IndexError('{} has one device; got index {}'.format(
                DEVICE_NAME, index))
        if self._device is None:
            self._device = _make_device(self)
        return self._device

    def parse_device_spec(self, spec):
        if isinstance(spec, str) and spec in _SPECS:
            return self.get_device(0)
        return None

    def device_from_array(self, array):
        if isinstance(array, mdarray):
            return self.get_device(0)
        return None


def _make_device(backend):
    # The device class derives from the core's Intel64Device (so that
    # isinstance checks of Chainer code hold); defined on first use to keep
    # this module's import light.
    from chainer_core.backend import Intel64Device
    from chainer_mkldnn._xp import xp as namespace

    class MkldnnDevice(Intel64Device):
        """The CPU with oneDNN kernels (``@intel64``); arrays are
        :class:`mdarray`, ``xp`` is NumPy with array-making functions
        returning them."""

        name = DEVICE_NAME
        xp = namespace
        supported_array_types = (mdarray,)

        def __init__(self, backend):
            self.backend = backend

        def from_host(self, ndarray):
            return numpy.asarray(ndarray).view(mdarray)

        def is_array_supported(self, array):
            return isinstance(array, mdarray)

    return MkldnnDevice(backend)



class MkldnnError(RuntimeError):
    """oneDNN failed while running an op; the message names the op."""


class UnsupportedError(MkldnnError):
    """oneDNN does not cover this case of an op (dtype, shape or
    parameters); the kernels catch it and run the NumPy reference instead.
    The message names the op."""


from chainer_mkldnn import _native  # NOQA: E402 (needs the classes above)

_backend = MkldnnBackend()


def is_available():
    """Whether the oneDNN library loads here."""
    return _backend.is_available()


def get_device():
    """The ``@intel64`` device."""
    return _backend.get_device(0)


def cache_info():
    """``{'hits', 'misses', 'size', 'capacity'}`` of the primitive cache
    (primitives are kept per op, shape and parameters)."""
    return _native.lib().cache_info()


def cache_clear():
    """Drop every cached primitive and reset the counters; also frees the
    calling thread's reused buffers (blocked copies, scratchpads)."""
    _native.lib().cache_clear()


def set_cache_capacity(capacity):
    """Keep at most ``capacity`` primitives (the least recently used are
    dropped first); also ``CHAINER_MKLDNN_CACHE_CAPACITY``, default
    1024."""
    _native.lib().cache_set_capacity(int(capacity))


def onednn_version():
    """The version of the loaded oneDNN library."""
    return _native.lib().version()


@hookimpl
def chainer_core_register_backends(registry):
    if platform.machine().lower() not in ('x86_64', 'amd64'):
        _native.set_load_error('oneDNN from onednn-cpu-gomp is built for '
                               'x86-64; this machine is {}'.format(
                                   platform.machine()))
    registry.register_backend(_backend)


@hookimpl
def chainer_core_register_kernels(registry):
    from chainer_mkldnn import _kernels
    for op, fn in _kernels.KERNELS.items():
        registry.register_kernel(op, BACKEND_NAME, fn)
