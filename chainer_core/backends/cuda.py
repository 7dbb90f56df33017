"""CuPy utilities (Chainer's ``chainer.backends.cuda``).

``available`` says whether CuPy can be imported here; ``cupy`` is the CuPy
module then, and otherwise an object that is no array module, so that
``xp is cuda.cupy`` is simply False. Transfers go through the device of the
installed GPU backend (the chainer-cuda plugin), found by discovery.
The kernel helpers (``elementwise``, ``reduce``, ``raw``, ``memoize``,
``clear_memo``, ``fuse``) and CuPy's ``Device``, ``Stream`` and ``Event``
exist only when CuPy is available.
"""
import os

import numpy

from backend_api.errors import DeviceSpecError, PluginError
from chainer_core import backend as _backend
from chainer_core.backend import GpuDevice  # NOQA
from chainer_core.configuration import config

_resolution_error = None
available = False
cudnn_enabled = False
_cudnn_version = 0

try:
    import cupy
    available = True
except Exception as e:  # CuPy fails with several errors without CUDA.
    _resolution_error = e
    # Compared with ``is`` by code written for Chainer; never an xp.
    cupy = object()


class _NoCupyArray:
    """Stands for ``cupy.ndarray`` without CuPy: no object is one."""


if available:
    from cupy import ndarray  # NOQA
    from cupy.cuda import Device, Event, Stream  # NOQA

    try:
        from cupy.cuda import cudnn as _libcudnn
        _cudnn_version = _libcudnn.getVersion()
        cudnn_enabled = os.environ.get('CHAINER_CUDNN', '1') != '0'
    except Exception:
        cudnn_enabled = False

    # Kernels are compiled once per arguments and device.
    @cupy.memoize(for_each_device=True)
    def elementwise(in_params, out_params, operation, name, **kwargs):
        return cupy.ElementwiseKernel(in_params, out_params, operation,
                                      name, **kwargs)

    @cupy.memoize(for_each_device=True)
    def reduce(in_params, out_params, map_expr, reduce_expr, post_map_expr,
               identity, name, **kwargs):
        return cupy.ReductionKernel(in_params, out_params, map_expr,
                                    reduce_expr, post_map_expr, identity,
                                    name, **kwargs)

    @cupy.memoize(for_each_device=True)
    def raw(code, name, *args, **kwargs):
        return cupy.RawKernel(code, name, *args, **kwargs)

    memoize = cupy.memoize
    clear_memo = cupy.clear_memo
    fuse = cupy.fuse
else:
    ndarray = _NoCupyArray


def check_cuda_available():
    """Raise :class:`RuntimeError` unless CuPy is available."""
    if not available:
        raise RuntimeError(
            'CUDA is not available here: CuPy cannot be imported ({}: {}). '
            'Install chainer-cuda (with CuPy) on a machine with a CUDA GPU.'
            .format(type(_resolution_error).__name__, _resolution_error))


class DummyDeviceType:
    """The device of CPU arrays: id -1, and a context that does nothing."""

    id = -1

    def __int__(self):
        return -1

    def __index__(self):
        return -1

    def __bool__(self):
        return False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None

    def use(self):
        pass

    def synchronize(self):
        pass

    def __eq__(self, other):
        return isinstance(other, DummyDeviceType)

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(DummyDeviceType)

    def __repr__(self):
        return 'DummyDevice'


DummyDevice = DummyDeviceType()


def get_device_from_id(device_id):
    """The ``cupy.cuda.Device`` of GPU ``device_id``; :data:`DummyDevice`
    for None or a negative id."""
    if device_id is not None and int(device_id) >= 0:
        check_cuda_available()
        return Device(int(device_id))
    return DummyDevice


def get_device_from_array(*arrays):
    """The ``cupy.cuda.Device`` of the first CuPy array among ``arrays``
    (Variables count by their arrays); :data:`DummyDevice` when none is."""
    for a in arrays:
        a = getattr(a, 'array', a)
        if available and isinstance(a, ndarray):
            return a.device
    return DummyDevice


def get_array_module(*args):
    """``cupy`` if any argument is a CuPy array (or a Variable of one),
    else ``numpy`` (see :func:`chainer_core.backend.get_array_module`)."""
    return _backend.get_array_module(*args)


def _convert(x, fn):
    if isinstance(x, list):
        return [_convert(a, fn) for a in x]
    if isinstance(x, tuple):
        return tuple(_convert(a, fn) for a in x)
    return fn(x)


def _array_to_cpu(array, stream):
    if array is None:
        return None
    if isinstance(array, numpy.ndarray):
        return array
    if isinstance(array, (numpy.generic, int, float, complex, bool)):
        return numpy.asarray(array)
    if available and isinstance(array, ndarray):
        return array.get(stream)
    try:
        return _backend.get_device('@numpy').send(array)
    except TypeError:
        raise TypeError('to_cpu: expected an array or a NumPy scalar, got '
                        '{}'.format(type(array).__name__)) from None


def to_cpu(array, stream=None):
    """Copy ``array`` (or arrays nested in lists and tuples) to the host.

    NumPy arrays are returned as they are; None stays None.
    """
    return _convert(array, lambda a: _array_to_cpu(a, stream))


def _gpu_device(device):
    if device is None:
        device_id = Device().id if available else 0
    else:
        device_id = int(getattr(device, 'id', device))
    try:
        return GpuDevice.from_device_id(device_id)
    except (DeviceSpecError, PluginError, TypeError) as e:
        if available:
            why = 'no installed backend provides \'@cupy:{}\' ({})'.format(
                device_id, e)
        else:
            why = 'CuPy cannot be imported ({})'.format(_resolution_error)
        raise RuntimeError(
            'to_gpu: GPU {} is not available: {}. Install chainer-cuda (with '
            'CuPy) on a machine with a CUDA GPU.'.format(device_id, why)
        ) from e


def to_gpu(array, device=None, stream=None):
    """Copy ``array`` (or arrays nested in lists and tuples) to a GPU.

    Args:
        array: the array(s); None stays None.
        device: the GPU (an id or a ``cupy.cuda.Device``); None for the
            current one.
        stream: unused; the transfer runs on the current stream.
    """
    gpu = _gpu_device(device)
    return _convert(array, lambda a: None if a is None else gpu.send(a))


def should_use_cudnn(level, lowest_version=0):
    """Whether cuDNN should be used at ``level`` ('==always' or '>=auto')
    given ``config.use_cudnn``."""
    if level not in ('==always', '>=auto'):
        raise ValueError("level must be '==always' or '>=auto', got {!r}"
                         .format(level))
    if not cudnn_enabled or _cudnn_version < lowest_version:
        return False
    allowed = ('always',) if level == '==always' else ('always', 'auto')
    return config.use_cudnn in allowed
