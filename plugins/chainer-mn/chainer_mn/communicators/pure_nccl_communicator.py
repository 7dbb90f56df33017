"""PureNcclCommunicator: gradients averaged with NCCL on GPUs (ChainerMN's
``'pure_nccl'``), and why it may be unavailable here.

Each process drives one GPU and joins one NCCL communicator, created from a
unique id that rank 0 makes and broadcasts over MPI. Everything NCCL has no
use for (Python objects, point-to-point messages, gathers and scatters)
goes through MPI as in the other communicators.

Nothing in this module imports CuPy until a communicator is created, so
that ``unavailable_reason`` can say what is missing where CuPy is not even
installed.
"""
import importlib.util
import warnings

import numpy

from chainer_mn.communicators.mpi_communicator_base import (
    MpiCommunicatorBase)


def unavailable_reason():
    """Why 'pure_nccl' cannot run in this process (what is missing), or ''
    when it can."""
    missing = []
    if importlib.util.find_spec('chainer_cuda') is None:
        missing.append('the chainer-cuda plugin (not installed: '
                       '`pip install chainer-cuda`)')
    if importlib.util.find_spec('cupy') is None:
        missing.append('CuPy (not installed)')
    else:
        try:
            import cupy
            if cupy.cuda.runtime.getDeviceCount() < 1:
                missing.append('a CUDA GPU (none found)')
        except Exception as e:
            missing.append('a CUDA GPU ({}: {})'.format(type(e).__name__, e))
        try:
            with warnings.catch_warnings():
                # CuPy warns when it cannot load libnccl; the reason
                # returned here says so, with the fix for chainer-mn.
                warnings.simplefilter('ignore', UserWarning)
                from cupy.cuda import nccl
            if not getattr(nccl, 'available', True):
                missing.append(
                    'NCCL (CuPy cannot load libnccl: `pip install '
                    '"chainer-mn[nccl13]"` for CUDA 13, `[nccl12]` for '
                    'CUDA 12)')
        except Exception as e:
            missing.append('NCCL ({}: {})'.format(type(e).__name__, e))
    if missing:
        return 'it needs ' + ' and '.join(missing)
    return ''


def choose_device(intra_rank, intra_size, device_count):
    """The GPU id a process uses: its rank on its machine, as ChainerMN's
    examples do (``comm.intra_rank``); GPU 0 when each process sees a single
    GPU (a launcher that sets ``CUDA_VISIBLE_DEVICES`` per process).

    Raises:
        ValueError: when the processes of this machine outnumber its GPUs
            (NCCL cannot put two ranks on one GPU).
    """
    if intra_size <= device_count:
        return intra_rank
    if device_count == 1:
        return 0
    raise ValueError(
        "create_communicator: 'pure_nccl' needs one GPU per process: {} "
        'processes on this machine but {} GPUs visible'.format(
            intra_size, device_count))


class CudaNccl:
    """One GPU of this process and its NCCL communicator: the operations
    :class:`PureNcclCommunicator` needs from CUDA, in one place.

    Args:
        device_id (int): the GPU.
    """

    def __init__(self, device_id):
        import cupy
        from cupy.cuda import nccl
        self.xp = cupy
        self._nccl = nccl
        self.device_id = device_id
        self.name = '@cupy:{}'.format(device_id)
        self._device = cupy.cuda.Device(device_id)
        self._comm = None
        # NCCL's type ids by dtype; sums of other dtypes go through MPI.
        self._types = {numpy.dtype(k): getattr(nccl, v) for k, v in (
            ('int8', 'NCCL_INT8'), ('uint8', 'NCCL_UINT8'),
            ('int32', 'NCCL_INT32'), ('uint32', 'NCCL_UINT32'),
            ('int64', 'NCCL_INT64'), ('uint64', 'NCCL_UINT64'),
            ('float16', 'NCCL_FLOAT16'), ('float32', 'NCCL_FLOAT32'),
            ('float64', 'NCCL_FLOAT64'))}

    def unique_id(self):
        return self._nccl.get_unique_id()

    def connect(self, size, unique_id, rank):
        """Join the NCCL communicator of ``size`` ranks (collective)."""
        with self._device:
            self._comm = self._nccl.NcclCommunicator(size, unique_id, rank)

    def close(self):
        if self._comm is not None:
            self._comm.destroy()
            self._comm = None

    def activate(self):
        """A context in which this GPU is CUDA's current device."""
        return self._device

    def handles(self, device):
        """Whether arrays that left a device named ``device`` (None: NumPy)
        travel through NCCL: CuPy arrays do."""
        return isinstance(device, str) and device.startswith('@cupy:')

    def owns(self, array):
        """Whether ``array`` is a CuPy array on this GPU."""
        return isinstance(array, self.xp.ndarray) and \
            array.device.id == self.device_id

    def current_stream(self):
        with self._device:
            return self.xp.cuda.get_current_stream()

    def new_stream(self):
        with self._device:
            return self.xp.cuda.Stream(non_blocking=True)

    def wait(self, waiting, other):
        """Work queued on ``waiting`` from now on starts after the work
        queued on ``other`` so far (no wait on the host)."""
        with self._device:
            event = self.xp.cuda.Event(disable_timing=True)
            event.record(other)
            waiting.wait_event(event)

    def supports(self, dtype):
        return numpy.dtype(dtype) in self._types

    def allreduce(self, array, stream):
        """Sum the contiguous ``array`` over the ranks, in place, queued on
        ``stream``."""
        ptr = array.data.ptr
        self._comm.allReduce(ptr, ptr, array.size, self._types[array.dtype],
                             self._nccl.NCCL_SUM, stream.ptr)

    def bcast(self, array, root, stream):
        """Overwrite the contiguous ``array`` with ``root``'s, queued on
        ``stream``."""
        self._comm.bcast(array.data.ptr, array.size,
                         self._types[array.dtype], root, stream.ptr)


def open_gpu(comm, device_id=None):
    """The :class:`CudaNccl` of GPU ``device_id`` (None: the one
    :func:`choose_device` gives ``comm``'s process), not yet connected
    (RuntimeError naming what is missing when CUDA or NCCL cannot be used
    here)."""
    reason = unavailable_reason()
    if reason:
        raise RuntimeError(
            "PureNcclCommunicator: 'pure_nccl' averages gradients with NCCL "
            'on GPUs, and {}'.format(reason))
    if device_id is None:
        import cupy
        device_id = choose_device(comm.intra_rank, comm.intra_size,
                                  cupy.cuda.runtime.getDeviceCount())
    return CudaNccl(device_id)


class PureNcclCommunicator(MpiCommunicatorBase):
    """Averages gradients with one NCCL allreduce on this process's GPU.

    Each process uses the GPU numbered by its rank on its machine
    (``intra_rank``; see :func:`choose_device`), as ChainerMN's examples
    do with ``model.to_device(comm.intra_rank)``: the model, and the arrays
    given to ``bcast``/``allreduce`` for NCCL, must live on that GPU
    (``comm.device``).

    ``multi_node_mean_grad`` packs every gradient into one contiguous
    buffer on the GPU (in the communication dtype), sums it over the
    processes with one NCCL allreduce, divides by the number of processes
    and copies each segment back into its gradient, all queued on the
    current CUDA stream. In float16 the gradients are divided before the
    sum, so that it does not overflow; in float32 and float64 after it.

    ``bcast_data`` broadcasts rank 0's parameters with NCCL (one broadcast
    per parameter dtype). ``allreduce`` and ``bcast`` go through NCCL when
    every process gives a CuPy array, through MPI otherwise; the other
    array methods and every ``*_obj`` method use MPI.

    Args:
        mpi_comm: the mpi4py communicator (``MPI.COMM_WORLD`` by default).
        allreduce_grad_dtype: the dtype gradients travel in (float16,
            float32 or float64). None follows ChainerMN's table: float16
            when ``chainer_core.config.dtype`` is float16 or mixed16, else
            the parameters' dtype.
        batched_copy (bool): pack the gradients with one kernel launch
            (a concatenation) instead of one copy per gradient.
        device_id (int): the GPU to use; None: the one numbered by
            ``intra_rank`` (see :func:`choose_device`).

    Attributes:
        device (str): this process's GPU (``'@cupy:N'``).
    """

    def __init__(self, mpi_comm=None, allreduce_grad_dtype=None,
                 batched_copy=False, *, device_id=None):
        super().__init__(mpi_comm, allreduce_grad_dtype, batched_copy)
        self._gpu = None
        self._buffers = {}
        error = None
        try:
            gpu = open_gpu(self, device_id)
        except (RuntimeError, ValueError) as e:
            error = (type(e), str(e))
        # A process that cannot join raises, and so does every other one,
        # instead of waiting for it inside NCCL's initialisation.
        errors = self.mpi_comm.allgather(error)
        for r, e in enumerate(errors):
            if e is not None:
                if r == self._rank:
                    raise e[0](e[1])
                raise e[0]('{} (raised on rank {})'.format(e[1], r))
        unique_id = gpu.unique_id() if self._rank == 0 else None
        unique_id = self.mpi_comm.bcast(unique_id, root=0)
        gpu.connect(self._size, unique_id, self._rank)
        self._gpu = gpu

    @property
    def device(self):
        """This process's GPU, as a device name (``'@cupy:N'``)."""
        return self._gpu.name

    def split(self, color, key):
        """A 'pure_nccl' communicator of the processes that pass the same
        ``color`` (``MPI_Comm_split``), with an NCCL communicator of its
        own on this process's GPU; ``finalize`` frees both."""
        sub = type(self)(mpi_comm=self.mpi_comm.Split(color, key),
                         allreduce_grad_dtype=self._allreduce_grad_dtype,
                         batched_copy=self._batched_copy,
                         device_id=self._gpu.device_id)
        sub._owns_comm = True
        return sub

    def finalize(self):
        """Release the NCCL communicator and the gradient buffers (and the
        MPI communicator if :meth:`split` made it)."""
        self._buffers.clear()
        if self._gpu is not None:
            self._gpu.close()
        super().finalize()

    # -- arrays ----------------------------------------------------------

    def allreduce(self, x):
        """The element-wise sum of ``x`` over every process, as a new
        array: with NCCL on this process's GPU when every process gives a
        CuPy array of a dtype NCCL sums (float16/32/64, int8/32/64 and their
        unsigned kinds; complex as pairs of floats); through MPI
        otherwise."""
        every = self._allreduce_headers(x)
        dtype = numpy.dtype(every[0][1])
        if not all(self._gpu.handles(h[2]) for h in every) or \
                not self._gpu.supports(_nccl_view_dtype(dtype)):
            return self._sum_host_copy(x, every[self._rank][2])
        gpu = self._gpu
        with gpu.activate():
            y = gpu.xp.array(_array_of(x), copy=True, order='C')
            gpu.allreduce(y.reshape(-1).view(_nccl_view_dtype(dtype)),
                          gpu.current_stream())
        return y

    def bcast(self, x, root=0):
        """The array ``x`` of ``root`` on every process: with NCCL when it
        is a CuPy array (arriving on this process's GPU), through MPI
        otherwise. ``root`` gets ``x`` back."""
        header = self._bcast_header(x, root)
        if not self._gpu.handles(header[2]):
            return self._bcast_host(x, header, root)
        gpu = self._gpu
        shape, dtype, _ = header
        with gpu.activate():
            if self._rank == root:
                y = gpu.xp.ascontiguousarray(_array_of(x))
            else:
                y = gpu.xp.empty(shape, numpy.dtype(dtype))
            if y.size:
                gpu.bcast(y.reshape(-1).view(numpy.uint8), root,
                          gpu.current_stream())
        return _array_of(x) if self._rank == root else y

    # -- models ----------------------------------------------------------

    def bcast_data(self, model):
        """Copy every initialised parameter of ``model`` from rank 0 to the
        other processes, with one NCCL broadcast per parameter dtype.

        Raises:
            ValueError: on every process, when the models differ in their
                parameters' names, shapes or dtypes, or a parameter is not
                on its process's GPU.
        """
        error = None
        for name, p in sorted(model.namedparams(), key=lambda np: np[0]):
            if p.array is not None and not self._gpu.owns(p.array):
                error = self._placement_error('bcast_data', name, p.array)
                break
        entries = self._same_params(model, error)
        if not entries:
            return
        gpu = self._gpu
        xp = gpu.xp
        groups = {}
        for _, p in entries:
            groups.setdefault(numpy.dtype(p.dtype), []).append(p)
        with gpu.activate():
            stream = gpu.current_stream()
            for dtype, params in sorted(groups.items(),
                                        key=lambda kv: kv[0].str):
                buf = xp.concatenate([p.array.reshape(-1) for p in params])
                gpu.bcast(buf.view(numpy.uint8), 0, stream)
                if self._rank == 0:
                    continue
                off = 0
                for p in params:
                    xp.copyto(p.array, buf[off:off + p.size].reshape(p.shape))
                    off += p.size

    def multi_node_mean_grad(self, model, zero_fill=False):
        """Replace the gradients of ``model`` by their mean over the
        processes (one NCCL allreduce on the current stream).

        The gradients keep their arrays (the means are copied into them);
        a missing gradient made up by ``zero_fill`` gets a new array.
        """
        entries = self._grad_entries(model, zero_fill)
        if not entries:
            return
        self._check_grad_layout(entries)
        with self._gpu.activate():
            self._mean_grads(entries, self._gpu.current_stream())

    def _multi_node_mean_grad_async(self, slots, zero_fill, stream):
        """Queue the averaging of the gradients of ``slots`` (objects with
        ``grad``, ``shape``, ``size``, ``dtype`` and ``array``, like
        parameters) on ``stream``, after the work already queued on the
        current stream (the backward that made them). Call
        :meth:`_wait_for` before using the gradients."""
        entries = [(s, s.grad) for s in slots
                   if s.grad is not None or zero_fill]
        if not entries:
            return
        gpu = self._gpu
        with gpu.activate():
            gpu.wait(stream, gpu.current_stream())
            with stream:
                self._mean_grads(entries, stream)

    def _wait_for(self, stream):
        """Make the current stream wait for the work queued on
        ``stream``."""
        with self._gpu.activate():
            self._gpu.wait(self._gpu.current_stream(), stream)

    def _new_stream(self):
        return self._gpu.new_stream()

    # -- helpers ---------------------------------------------------------

    def _mean_grads(self, entries, stream):
        gpu = self._gpu
        xp = gpu.xp
        for p, g in entries:
            a = p.array if g is None else g
            if not gpu.owns(a):
                raise ValueError(self._placement_error(
                    'multi_node_mean_grad', getattr(p, 'name', None), a))
        dtype = self._communication_dtype(entries)
        n = sum(p.size for p, _ in entries)
        buf = self._buffer(stream, n, dtype)
        scale = 1.0 / self._size
        # float16 sums overflow easily: divide first there; divide after
        # the sum in wider dtypes, where it is exact as one process's.
        before = dtype == numpy.float16
        self._pack(entries, buf, scale if before else 1.0)
        gpu.allreduce(buf, stream)
        if not before:
            buf *= buf.dtype.type(scale)
        off = 0
        for p, g in entries:
            seg = buf[off:off + p.size].reshape(p.shape)
            off += p.size
            if g is None:
                p.grad = seg.astype(p.dtype, copy=True)
            else:
                xp.copyto(g, seg, casting='same_kind')

    def _pack(self, entries, buf, scale):
        xp = self._gpu.xp
        if self._batched_copy:
            parts = [xp.zeros(p.size, buf.dtype) if g is None
                     else g.reshape(-1) for p, g in entries]
            if scale == 1.0:
                xp.concatenate(parts, out=buf)
            elif all(part.dtype == buf.dtype for part in parts):
                xp.concatenate(parts, out=buf)
                buf *= buf.dtype.type(scale)
            else:
                # Scale in the gradients' dtype before narrowing, so that
                # a value that fits once divided does not overflow.
                wide = xp.concatenate(parts)
                xp.multiply(wide, scale, out=buf)
            return
        off = 0
        for p, g in entries:
            seg = buf[off:off + p.size].reshape(p.shape)
            off += p.size
            if g is None:
                seg.fill(0)
            elif scale == 1.0:
                xp.copyto(seg, g, casting='same_kind')
            else:
                xp.multiply(g, scale, out=seg)

    def _buffer(self, stream, n, dtype):
        """A buffer of ``n`` elements kept across steps, one per stream, so
        that an averaging queued on another stream never shares it."""
        key = stream.ptr if hasattr(stream, 'ptr') else id(stream)
        buf = self._buffers.get(key)
        if buf is None or buf.dtype != dtype or buf.size < n:
            with self._gpu.activate():
                buf = self._gpu.xp.empty(n, dtype)
            self._buffers[key] = buf
        return buf[:n]

    def _communication_dtype(self, entries):
        if self._allreduce_grad_dtype is not None:
            return self._allreduce_grad_dtype
        from chainer_core import configuration
        if configuration.get_dtype() == numpy.float16:
            return numpy.dtype(numpy.float16)
        return numpy.result_type(*[p.dtype for p, _ in entries])

    def _placement_error(self, where, name, array):
        from chainer_mn import _mpi
        return ('{}: parameter {!r} is on {} but this process communicates '
                'on {} (its intra_rank\'s GPU); move the model there, e.g. '
                'model.to_device(comm.device)'.format(
                    where, name, _mpi.device_name(array) or '@numpy',
                    self._gpu.name))


def _nccl_view_dtype(dtype):
    """The dtype NCCL sums an array of ``dtype`` as (complex numbers as
    pairs of floats)."""
    if dtype.kind == 'c':
        return numpy.dtype('f{}'.format(dtype.itemsize // 2))
    return dtype


def _array_of(x):
    from chainer_core.variable import Variable
    return x.array if isinstance(x, Variable) else x

