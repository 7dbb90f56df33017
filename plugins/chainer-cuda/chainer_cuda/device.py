"""The ``cuda`` backend and its devices ``@cupy:N``."""
import operator
import re
import sys
import threading

import numpy

from backend_api import DeviceSpecError
from chainer_core.backend import GpuDevice

from chainer_cuda import BACKEND_NAME, _probe

_SPEC = re.compile(r'@cupy:(\d+)\Z')

# DLPack device types (dlpack.h): host memory, and CUDA memory a kernel of
# any GPU of the process can be given once it is wrapped as a CuPy array.
_DLPACK_CPU = 1
_DLPACK_CUDA_KINDS = (2, 3, 13)   # kDLCUDA, kDLCUDAHost, kDLCUDAManaged


def _cupy_ndarray():
    # No CuPy array can exist before CuPy is imported, and asking must not
    # import it: every backend is asked about every foreign array.
    cupy = sys.modules.get('cupy')
    return None if cupy is None else getattr(cupy, 'ndarray', None)


class CudaBackend:
    """CUDA GPUs through CuPy: devices ``@cupy:0``, ``@cupy:1``, ..."""

    name = BACKEND_NAME
    # Above every CPU backend: a GPU, when there is one, is the default.
    priority = 500

    def __init__(self):
        self._devices = {}
        self._lock = threading.Lock()

    def is_available(self):
        return _probe.state().available

    def unavailable_reason(self):
        return _probe.state().reason

    def device_count(self):
        return _probe.state().device_count

    def get_device(self, index=0):
        index = operator.index(index)
        state = _probe.state()
        if index < 0 or (state.available and index >= state.device_count):
            raise DeviceSpecError(
                '@cupy:{}: no such GPU here ({} visible)'.format(
                    index, state.device_count))
        device = self._devices.get(index)
        if device is None:
            with self._lock:
                device = self._devices.setdefault(
                    index, CudaDevice(self, index))
        return device

    def parse_device_spec(self, spec):
        match = _SPEC.match(spec) if isinstance(spec, str) else None
        if match is None:
            return None
        # Without CUDA the device is still named, so that the core reports
        # unavailable_reason() instead of an unknown specifier.
        return self.get_device(int(match.group(1)))

    def device_from_array(self, array):
        ndarray = _cupy_ndarray()
        if ndarray is None or not isinstance(array, ndarray):
            return None
        return self.get_device(array.device.id)


class CudaDevice(GpuDevice):
    """One CUDA GPU, ``@cupy:N``: its arrays are ``cupy.ndarray``\\ s on it.

    Besides the Device contract it offers what GPU code needs: ``device``
    (the ``cupy.cuda.Device``), :meth:`stream`, :meth:`event`,
    :meth:`current_stream`, the memory pool (:meth:`memory_pool`,
    :meth:`free_memory`) and DLPack (:meth:`from_dlpack`; CuPy arrays
    export ``__dlpack__`` themselves). Used as ``with device:``, it is both
    chainer-core's default device and CUDA's current device inside the block,
    and the previous CUDA device is current again after it.
    """

    def __init__(self, backend, device_id):
        self.backend = backend
        self.device_id = device_id
        self.name = '@cupy:{}'.format(device_id)
        self._cuda_device = None

    @property
    def xp(self):
        return _probe.require()

    @property
    def device(self):
        """The ``cupy.cuda.Device`` of this GPU."""
        if self._cuda_device is None:
            self._cuda_device = self.xp.cuda.Device(self.device_id)
        return self._cuda_device

    # -- arrays --------------------------------------------------------

    def is_array_supported(self, array):
        ndarray = _cupy_ndarray()
        return ndarray is not None and isinstance(array, ndarray) and \
            array.device.id == self.device_id

    def from_host(self, ndarray):
        # CuPy stages a host array through pinned memory and copies it
        # asynchronously on the current stream; the source may change as
        # soon as this returns.
        with self.device:
            return self.xp.asarray(ndarray, blocking=False)

    def to_host(self, array):
        ndarray = _cupy_ndarray()
        if ndarray is not None and isinstance(array, ndarray):
            # Waits for the current stream, so the values are final.
            return array.get()
        return GpuDevice.to_host(self, array)

    def send_array(self, array):
        ndarray = _cupy_ndarray()
        if ndarray is not None and isinstance(array, ndarray):
            if array.device.id == self.device_id:
                return array
            # A copy made on this GPU (peer to peer where the GPUs allow).
            with self.device:
                return array.copy()
        if type(array) is numpy.ndarray:
            return self.from_host(array)
        if _dlpack_kind(array) in _DLPACK_CUDA_KINDS:
            return self.from_dlpack(array)
        return GpuDevice.send_array(self, array)

    def from_dlpack(self, array):
        """An array of this GPU holding ``array``'s values, for any object
        with ``__dlpack__`` (a PyTorch tensor, a NumPy or chainer-native
        array, ...). GPU memory on this GPU is shared, not copied; memory
        elsewhere is copied here."""
        if _dlpack_kind(array) == _DLPACK_CPU:
            return self.from_host(numpy.from_dlpack(array))
        with self.device:
            return self.send_array(self.xp.from_dlpack(array))

    # -- execution -------------------------------------------------------

    def use(self):
        self.device.use()

    def synchronize(self):
        self.device.synchronize()

    def __enter__(self):
        self.device.__enter__()
        try:
            return GpuDevice.__enter__(self)
        except BaseException:
            self.device.__exit__(None, None, None)
            raise

    def __exit__(self, *exc):
        try:
            GpuDevice.__exit__(self, *exc)
        finally:
            self.device.__exit__(*exc)

    def stream(self, non_blocking=False, ptds=False):
        """A new ``cupy.cuda.Stream`` on this GPU (``with stream:`` makes
        it current; ops and transfers then queue on it)."""
        with self.device:
            return self.xp.cuda.Stream(non_blocking=non_blocking, ptds=ptds)

    def event(self, block=False, disable_timing=False, interprocess=False):
        """A new ``cupy.cuda.Event`` on this GPU (``record()`` it on a
        stream, ``synchronize()`` or ``elapsed_time`` with another)."""
        with self.device:
            return self.xp.cuda.Event(block=block,
                                      disable_timing=disable_timing,
                                      interprocess=interprocess)

    def current_stream(self):
        """The stream work on this GPU queues on in this thread."""
        with self.device:
            return self.xp.cuda.get_current_stream()

    # -- memory ----------------------------------------------------------

    def memory_pool(self):
        """CuPy's default memory pool (it keeps freed blocks for reuse)."""
        return self.xp.get_default_memory_pool()

    def memory_info(self):
        """``{'pool_used', 'pool_held', 'free', 'total'}`` in bytes: what
        arrays use and what the pool holds on this GPU, and the GPU's free
        and total memory as the driver reports them."""
        pool = self.memory_pool()
        with self.device:
            free, total = self.xp.cuda.runtime.memGetInfo()
            return {'pool_used': pool.used_bytes(),
                    'pool_held': pool.total_bytes(),
                    'free': free, 'total': total}

    def free_memory(self):
        """Give the blocks the memory pool keeps unused on this GPU, and the
        unused pinned host memory, back to the driver (after the queued
        work is done, which may still use them)."""
        self.synchronize()
        with self.device:
            self.memory_pool().free_all_blocks()
        self.xp.get_default_pinned_memory_pool().free_all_blocks()


def _dlpack_kind(array):
    fn = getattr(array, '__dlpack_device__', None)
    if fn is None:
        return None
    try:
        return int(fn()[0])
    except Exception:
        return None


BACKEND = CudaBackend()
