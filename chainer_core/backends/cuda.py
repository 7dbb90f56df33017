"""CuPy utilities (Chainer's ``chainer.backends.cuda``).

``available`` says whether CuPy can be imported here; ``cupy`` is the CuPy
module then, and otherwise an object that is no array module, so that
``xp is cuda.cupy`` is simply False. Transfers go through the device of the
installed GPU backend (the chainer-cuda plugin), found by discovery.
Without CuPy the kernel helpers (``elementwise``, ``reduce``, ``raw``),
``using_allocator`` and CuPy's ``Device``, ``Stream`` and ``Event`` raise a
RuntimeError saying so when called, and the decorators (``memoize``,
``fuse``) leave functions as they are, so that modules written for Chainer
still import.
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

    class _Unavailable:
        """Stands for a CuPy class without CuPy: constructing it says
        what is missing."""

        def __init__(self, *args, **kwargs):
            check_cuda_available()

    class Device(_Unavailable):
        """``cupy.cuda.Device`` (needs CuPy)."""

    class Stream(_Unavailable):
        """``cupy.cuda.Stream`` (needs CuPy)."""

    class Event(_Unavailable):
        """``cupy.cuda.Event`` (needs CuPy)."""

    def elementwise(in_params, out_params, operation, name, **kwargs):
        """``cupy.ElementwiseKernel``, compiled once per device (needs
        CuPy)."""
        check_cuda_available()

    def reduce(in_params, out_params, map_expr, reduce_expr, post_map_expr,
               identity, name, **kwargs):
        """``cupy.ReductionKernel``, compiled once per device (needs
        CuPy)."""
        check_cuda_available()

    def raw(code, name, *args, **kwargs):
        """``cupy.RawKernel``, compiled once per device (needs CuPy)."""
        check_cuda_available()

    def memoize(for_each_device=False):
        """CuPy's memoizing decorator; without CuPy, functions stay as they
        are, so modules decorating GPU helpers still import."""
        return lambda f: f

    def clear_memo():
        """Clear CuPy's memo (nothing to clear without CuPy)."""

    def fuse(*args, **kwargs):
        """``cupy.fuse``; without CuPy the function runs unfused on
        NumPy. Usable as ``@fuse`` and ``@fuse(...)``."""
        if len(args) == 1 and not kwargs and callable(args[0]):
            return args[0]
        return lambda f: f


def check_cuda_available():
    """Raise :class:`RuntimeError` unless CuPy is available."""
    if not available:
        raise RuntimeError(
            'CUDA is not available here: CuPy cannot be imported ({}: {}). '
            'Install chainer-cuda (with CuPy) on a machine with a CUDA GPU.'
            .format(type(_resolution_error).__name__, _resolution_error))


def using_allocator(allocator=None):
    """A ``with`` block inside which GPU memory comes from ``allocator``
    (a function of a size in bytes returning a ``cupy.cuda.MemoryPointer``;
    None: CuPy's default memory pool), as ``cupy.cuda.using_allocator``."""
    check_cuda_available()
    return cupy.cuda.using_allocator(allocator)


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
    if type(array) is numpy.ndarray:
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


def _current_device_id():
    if not available:
        return 0
    try:
        return Device().id
    except RuntimeError:
        # CuPy without a driver: GPU 0, whose lookup then says why it
        # cannot be used.
        return 0


def _gpu_device(device):
    if device is None:
        device_id = _current_device_id()
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


def copy(array, out=None, out_device=None, stream=None):
    """A copy of the CuPy array ``array`` (into ``out``, or on
    ``out_device``)."""
    check_cuda_available()
    if out is None:
        with get_device_from_id(
                out_device if out_device is not None
                else array.device.id):
            out = cupy.empty_like(array)
    with get_device_from_array(array):
        cupy.copyto(out, array)
    return out


def get_device(*args):
    """The device of the first CuPy array (or id) among ``args``;
    :data:`DummyDevice` when none is (deprecated in Chainer: use
    ``get_device_from_id`` or ``get_device_from_array``)."""
    for a in args:
        if isinstance(a, int) and not isinstance(a, bool):
            return get_device_from_id(a)
        device = get_device_from_array(a)
        if device is not DummyDevice:
            return device
    return DummyDevice


_max_workspace_size = [8 * 1024 * 1024]


def get_max_workspace_size():
    """The cuDNN workspace limit in bytes."""
    return _max_workspace_size[0]


def set_max_workspace_size(size):
    """Set the cuDNN workspace limit in bytes."""
    size = int(size)
    if size < 0:
        raise ValueError('set_max_workspace_size: size must be >= 0, got {}'
                         .format(size))
    _max_workspace_size[0] = size


def get_cudnn_dropout_states():
    """cuDNN's dropout states of this thread: none without cuDNN."""
    return get_cudnn_dropout_states_core(None)


def get_cudnn_dropout_states_core(thread_id):
    """cuDNN's dropout states of a thread: none without cuDNN."""
    raise RuntimeError('cuDNN dropout states: cuDNN is not available here '
                       '(CuPy {} has no cuDNN bindings, or CuPy is missing)'
                       .format(getattr(cupy, '__version__', '(none)')))


def should_use_cudnn_tensor_core(dtype):
    """Whether cuDNN's tensor cores should be used for ``dtype`` given
    ``config.use_cudnn_tensor_core``."""
    mode = config.use_cudnn_tensor_core
    if mode not in ('always', 'auto', 'never'):
        raise ValueError("config.use_cudnn_tensor_core must be 'always', "
                         "'auto' or 'never', got {!r}".format(mode))
    if not cudnn_enabled or mode == 'never':
        return False
    return mode == 'always' or numpy.dtype(dtype) == numpy.float16


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
