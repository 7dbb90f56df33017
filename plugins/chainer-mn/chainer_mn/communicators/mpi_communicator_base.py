"""MpiCommunicatorBase: every communicator method over mpi4py, except the
strategy of ``multi_node_mean_grad``.

Arrays travel as raw bytes after a small pickled header (shape, dtype,
device). The header exchange is also how bad input is reported: a process
whose input is invalid sends an error instead of a header, and every
process of the collective raises the same error, instead of the others
waiting forever.
"""
import pickle
import zlib

import numpy

from chainer_mn import _mpi
from chainer_mn.communicators.communicator_base import CommunicatorBase

# Segments of packed byte buffers start at multiples of this, so that the
# arrays viewed on them are aligned.
_ALIGN = 64
_DEFAULT_MAX_BUF_LEN = 256 * 1024 * 1024
_REDUCIBLE_KINDS = 'fiuc'


class _RemoteError:
    """What a process sends instead of a header when its input is bad."""

    def __init__(self, exc_type, message, rank):
        self.exc_type = exc_type
        self.message = message
        self.rank = rank

    def raise_(self, where):
        raise self.exc_type('{} (raised on rank {}): {}'.format(
            where, self.rank, self.message))


def _raise_any(items, where):
    for item in items:
        if isinstance(item, _RemoteError):
            item.raise_(where)


def check_grad_dtype(value, where):
    """``value`` as a float ``numpy.dtype`` (or None); ValueError naming
    ``where`` otherwise."""
    if value is None:
        return None
    try:
        dtype = numpy.dtype(value)
    except TypeError:
        dtype = None
    if dtype is None or dtype.kind != 'f':
        raise ValueError(
            '{}: allreduce_grad_dtype must be a float dtype (float16, '
            'float32, float64) or None, got {!r}'.format(
                where, value if dtype is None else dtype))
    return dtype


def _aligned(n):
    return -(-n // _ALIGN) * _ALIGN


def _unwrap(x):
    from chainer_core.variable import Variable
    if isinstance(x, Variable):
        return x.array
    return x


def _header(x, what):
    """``(shape, dtype, device)`` of the array ``x``; TypeError if it is
    not one."""
    x = _unwrap(x)
    if isinstance(x, numpy.generic):
        x = numpy.asarray(x)
    if x is None or not hasattr(x, 'shape') or not hasattr(x, 'dtype'):
        raise TypeError('{} must be an array, got {}'.format(
            what, type(x).__name__))
    dtype = numpy.dtype(x.dtype)
    if dtype.hasobject:
        raise TypeError('{}: arrays of dtype object cannot be sent (use the '
                        '*_obj methods for Python objects)'.format(what))
    return tuple(int(s) for s in x.shape), dtype.str, _mpi.device_name(x)


def _layout(headers):
    """Byte counts and aligned displacements of arrays with ``headers``."""
    counts, displs, off = [], [], 0
    for shape, dtype, _ in headers:
        n = int(numpy.prod(shape, dtype=numpy.int64)) * \
            numpy.dtype(dtype).itemsize
        counts.append(n)
        displs.append(off)
        off += _aligned(n)
    return counts, displs, off


def _unpack(buf, headers, displs):
    out = []
    for (shape, dtype, device), d in zip(headers, displs):
        dtype = numpy.dtype(dtype)
        n = int(numpy.prod(shape, dtype=numpy.int64))
        a = buf[d:d + n * dtype.itemsize].view(dtype).reshape(shape)
        out.append(_mpi.to_device_like(a, device))
    return tuple(out)


def _pack(arrays, headers):
    counts, displs, total = _layout(headers)
    buf = numpy.empty(total, numpy.uint8)
    for a, c, d in zip(arrays, counts, displs):
        buf[d:d + c] = _mpi.byte_view(a)
    return buf, counts, displs


class MpiCommunicatorBase(CommunicatorBase):
    """Communication over an mpi4py communicator (``MPI.COMM_WORLD`` by
    default).

    Args:
        mpi_comm: the mpi4py communicator.
        allreduce_grad_dtype: the dtype gradients are averaged in (None:
            the parameters' own, promoted to one dtype). ``numpy.float16``
            halves the traffic; gradients are divided by the number of
            processes before the sum, so that it does not overflow.
        batched_copy (bool): accepted for compatibility with ChainerMN,
            where it batches GPU copies; packing here is one copy per
            parameter either way.

    Attributes:
        mpi_comm: the mpi4py communicator.
    """

    def __init__(self, mpi_comm=None, allreduce_grad_dtype=None,
                 batched_copy=False):
        MPI = _mpi.get_mpi()
        self._MPI = MPI
        self._owns_comm = False
        if mpi_comm is None:
            mpi_comm = MPI.COMM_WORLD
        elif not isinstance(mpi_comm, MPI.Comm):
            raise TypeError('{}: mpi_comm must be an mpi4py communicator, '
                            'got {}'.format(type(self).__name__,
                                            type(mpi_comm).__name__))
        self.mpi_comm = mpi_comm
        self._rank = mpi_comm.Get_rank()
        self._size = mpi_comm.Get_size()
        self._allreduce_grad_dtype = None
        self.set_config('allreduce_grad_dtype', allreduce_grad_dtype)
        self._batched_copy = bool(batched_copy)
        self._f16_sum_op = None
        self._init_ranks()

    # -- topology --------------------------------------------------------

    def _init_ranks(self):
        names = self.mpi_comm.allgather(self._MPI.Get_processor_name())
        mine = names[self._rank]
        nodes = []
        for name in names:
            if name not in nodes:
                nodes.append(name)
        self._intra_rank = names[:self._rank].count(mine)
        self._intra_size = names.count(mine)
        self._inter_rank = nodes.index(mine)
        self._inter_size = len(nodes)

    @property
    def rank(self):
        return self._rank

    @property
    def size(self):
        return self._size

    @property
    def intra_rank(self):
        return self._intra_rank

    @property
    def intra_size(self):
        return self._intra_size

    @property
    def inter_rank(self):
        return self._inter_rank

    @property
    def inter_size(self):
        return self._inter_size

    def __repr__(self):
        return '<{} rank {} of {}>'.format(type(self).__name__, self._rank,
                                           self._size)

    # -- configuration ---------------------------------------------------

    @property
    def allreduce_grad_dtype(self):
        """The dtype of gradient averaging (None: the parameters')."""
        return self._allreduce_grad_dtype

    def set_config(self, name, value=True, **kwargs):
        """Set ``'allreduce_grad_dtype'`` (a float dtype or None) or
        ``'batched_copy'`` (bool)."""
        if kwargs:
            raise TypeError('set_config: unexpected arguments {}'.format(
                sorted(kwargs)))
        if name == 'allreduce_grad_dtype':
            self._allreduce_grad_dtype = check_grad_dtype(
                value, type(self).__name__)
        elif name == 'batched_copy':
            self._batched_copy = bool(value)
        else:
            super().set_config(name, value)

    def get_config(self, name=None):
        values = {'allreduce_grad_dtype': self._allreduce_grad_dtype,
                  'batched_copy': self._batched_copy}
        if name is None:
            return values
        if name not in values:
            return super().get_config(name)
        return values[name]

    def split(self, color, key):
        """A communicator of the same kind over ``MPI_Comm_split``; it owns
        the new MPI communicator (``finalize`` frees it)."""
        sub = type(self)(mpi_comm=self.mpi_comm.Split(color, key),
                         allreduce_grad_dtype=self._allreduce_grad_dtype,
                         batched_copy=self._batched_copy)
        sub._owns_comm = True
        return sub

    def finalize(self):
        """Free the MPI communicator if :meth:`split` made it."""
        if self._f16_sum_op is not None:
            self._f16_sum_op.Free()
            self._f16_sum_op = None
        if self._owns_comm and self.mpi_comm != self._MPI.COMM_NULL:
            self.mpi_comm.Free()
            self._owns_comm = False

    # -- helpers ---------------------------------------------------------

    def _local_headers(self, arrays, what):
        try:
            return [_header(x, '{}[{}]'.format(what, i))
                    for i, x in enumerate(arrays)], None
        except (TypeError, ValueError) as e:
            return None, _RemoteError(type(e), str(e), self._rank)

    def _sum_inplace(self, array):
        """Sum the contiguous NumPy ``array`` over all processes, in
        place (one Allreduce)."""
        MPI = self._MPI
        if array.dtype == numpy.float16:
            # MPI has no standard half type; a user-defined sum over 16-bit
            # words works with every library (and here beats MPICH's own).
            if self._f16_sum_op is None:
                self._f16_sum_op = MPI.Op.Create(_f16_sum, commute=True)
            self.mpi_comm.Allreduce(MPI.IN_PLACE,
                                    [array.view(numpy.int16), MPI.SHORT],
                                    op=self._f16_sum_op)
        else:
            self.mpi_comm.Allreduce(MPI.IN_PLACE, array, op=MPI.SUM)

    # -- arrays ----------------------------------------------------------

    def send(self, data, dest, tag=0):
        """Send an array, or a tuple or list of arrays, to ``dest``.

        The receiver calls :meth:`recv`. Arrays go as raw bytes (any dtype,
        float16 included); arrays of a non-NumPy device are copied to host
        memory first and arrive on a device of the same backend.
        """
        is_tuple = isinstance(data, (tuple, list))
        arrays = list(data) if is_tuple else [data]
        headers, error = self._local_headers(arrays, 'send: data')
        if error is not None:
            self.mpi_comm.send(error, dest=dest, tag=tag)
            error.raise_('send')
        self.mpi_comm.send((is_tuple, headers), dest=dest, tag=tag)
        for x in arrays:
            a = _mpi.host_array(_unwrap(x))
            self.mpi_comm.Send([_mpi.byte_view(a), self._MPI.BYTE],
                               dest=dest, tag=tag)

    def recv(self, source, tag=0):
        """Receive what :meth:`send` sent from ``source``: an array, or a
        tuple of arrays if a tuple or list was sent."""
        MPI = self._MPI
        status = MPI.Status()
        message = self.mpi_comm.recv(source=source, tag=tag, status=status)
        if isinstance(message, _RemoteError):
            message.raise_('recv')
        is_tuple, headers = message
        source, tag = status.Get_source(), status.Get_tag()
        out = []
        for shape, dtype, device in headers:
            a = numpy.empty(shape, numpy.dtype(dtype))
            self.mpi_comm.Recv([_mpi.byte_view(a), MPI.BYTE], source=source,
                               tag=tag)
            out.append(_mpi.to_device_like(a, device))
        return tuple(out) if is_tuple else out[0]

    def bcast(self, x, root=0):
        """The array ``x`` of ``root`` on every process (``x`` is ignored
        elsewhere; ``root`` gets ``x`` back)."""
        return self._bcast_host(x, self._bcast_header(x, root), root)

    def _bcast_header(self, x, root):
        """``(shape, dtype, device)`` of ``root``'s ``x`` on every process
        (its error, raised everywhere, if ``x`` is not an array)."""
        header = None
        if self._rank == root:
            headers, error = self._local_headers([x], 'bcast: x')
            header = error if error is not None else headers[0]
        header = self.mpi_comm.bcast(header, root=root)
        _raise_any([header], 'bcast')
        return header

    def _bcast_host(self, x, header, root):
        MPI = self._MPI
        if self._rank == root:
            a = _mpi.host_array(_unwrap(x))
            self.mpi_comm.Bcast([_mpi.byte_view(a), MPI.BYTE], root=root)
            return _unwrap(x)
        shape, dtype, device = header
        a = numpy.empty(shape, numpy.dtype(dtype))
        self.mpi_comm.Bcast([_mpi.byte_view(a), MPI.BYTE], root=root)
        return _mpi.to_device_like(a, device)

    def gather(self, x, root=0):
        """The arrays of every process (shapes and dtypes may differ), as a
        tuple on ``root``; None on the others."""
        MPI = self._MPI
        headers, error = self._local_headers([x], 'gather: x')
        mine = error if error is not None else headers[0]
        every = self.mpi_comm.allgather(mine)
        _raise_any(every, 'gather')
        a = _mpi.host_array(_unwrap(x))
        send = [_mpi.byte_view(a), MPI.BYTE]
        if self._rank != root:
            self.mpi_comm.Gatherv(send, None, root=root)
            return None
        counts, displs, total = _layout(every)
        buf = numpy.empty(total, numpy.uint8)
        self.mpi_comm.Gatherv(send, [buf, (counts, displs), MPI.BYTE],
                              root=root)
        return _unpack(buf, every, displs)

    def allgather(self, x):
        """The arrays of every process (shapes and dtypes may differ), as a
        tuple on every process."""
        MPI = self._MPI
        headers, error = self._local_headers([x], 'allgather: x')
        mine = error if error is not None else headers[0]
        every = self.mpi_comm.allgather(mine)
        _raise_any(every, 'allgather')
        a = _mpi.host_array(_unwrap(x))
        counts, displs, total = _layout(every)
        buf = numpy.empty(total, numpy.uint8)
        self.mpi_comm.Allgatherv([_mpi.byte_view(a), MPI.BYTE],
                                 [buf, (counts, displs), MPI.BYTE])
        return _unpack(buf, every, displs)

    def allreduce(self, x):
        """The element-wise sum of ``x`` over every process (same shape and
        dtype everywhere; a numeric dtype), as a new array."""
        every = self._allreduce_headers(x)
        return self._sum_host_copy(x, every[self._rank][2])

    def _sum_host_copy(self, x, device):
        """The sum of ``x`` over the processes through host memory, placed
        as arrays that left ``device`` are."""
        y = numpy.array(_mpi.host_array(_unwrap(x)), copy=True, order='C')
        self._sum_inplace(y)
        return _mpi.to_device_like(y, device)

    def _allreduce_headers(self, x):
        """The headers of every process's ``x``, once every process has
        checked that all are arrays of one shape and one numeric dtype
        (raising the same error everywhere otherwise)."""
        headers, error = self._local_headers([x], 'allreduce: x')
        mine = error
        if error is None:
            mine = headers[0]
            if numpy.dtype(mine[1]).kind not in _REDUCIBLE_KINDS:
                mine = _RemoteError(
                    TypeError, 'allreduce: x has dtype {}; a numeric dtype '
                    'is needed'.format(numpy.dtype(mine[1])), self._rank)
        every = self.mpi_comm.allgather(mine)
        _raise_any(every, 'allreduce')
        for r, h in enumerate(every):
            if h[:2] != every[0][:2]:
                raise ValueError(
                    'allreduce: x has shape {} and dtype {} on rank 0 but '
                    'shape {} and dtype {} on rank {}'.format(
                        every[0][0], numpy.dtype(every[0][1]), h[0],
                        numpy.dtype(h[1]), r))
        return every

    def scatter(self, xs, root=0):
        """``xs[i]`` of ``root`` on rank ``i``.

        ``xs`` (used on ``root`` only) is a tuple or list of ``size`` arrays,
        or an array whose first axis has length ``size``.
        """
        MPI = self._MPI
        headers = None
        arrays = None
        if self._rank == root:
            error = None
            if isinstance(xs, (tuple, list)):
                arrays = list(xs)
            else:
                x = _unwrap(xs)
                if not hasattr(x, 'shape') or x.ndim == 0:
                    error = _RemoteError(
                        TypeError, 'scatter: xs must be a tuple or list of '
                        'arrays or an array, got {}'.format(
                            type(xs).__name__), self._rank)
                else:
                    arrays = [x[i] for i in range(x.shape[0])]
            if error is None and len(arrays) != self._size:
                error = _RemoteError(
                    ValueError, 'scatter: xs has {} entries for {} '
                    'processes'.format(len(arrays), self._size), self._rank)
            if error is None:
                headers, error = self._local_headers(arrays, 'scatter: xs')
            if error is not None:
                headers = [error] * self._size
        header = self.mpi_comm.scatter(headers, root=root)
        _raise_any([header], 'scatter')
        shape, dtype, device = header
        out = numpy.empty(shape, numpy.dtype(dtype))
        recv = [_mpi.byte_view(out), MPI.BYTE]
        if self._rank == root:
            buf, counts, displs = _pack(
                [_mpi.host_array(_unwrap(a)) for a in arrays], headers)
            self.mpi_comm.Scatterv([buf, (counts, displs), MPI.BYTE], recv,
                                   root=root)
        else:
            self.mpi_comm.Scatterv(None, recv, root=root)
        return _mpi.to_device_like(out, device)

    def alltoall(self, xs):
        """Send ``xs[i]`` to rank ``i``; returns the tuple of what every
        rank sent here (shapes and dtypes may differ)."""
        MPI = self._MPI
        arrays = list(xs) if isinstance(xs, (tuple, list)) else None
        if arrays is None:
            error = _RemoteError(TypeError, 'alltoall: xs must be a tuple or '
                                 'list of arrays, got {}'.format(
                                     type(xs).__name__), self._rank)
            headers = None
        elif len(arrays) != self._size:
            error = _RemoteError(ValueError, 'alltoall: xs has {} entries '
                                 'for {} processes'.format(
                                     len(arrays), self._size), self._rank)
            headers = None
        else:
            headers, error = self._local_headers(arrays, 'alltoall: xs')
        # A process with a bad input sends its error to every process, so
        # that all of them raise instead of waiting for it.
        outgoing = headers if error is None else [error] * self._size
        incoming = self.mpi_comm.alltoall(outgoing)
        _raise_any(incoming, 'alltoall')
        sbuf, scounts, sdispls = _pack(
            [_mpi.host_array(_unwrap(a)) for a in arrays], headers)
        rcounts, rdispls, total = _layout(incoming)
        rbuf = numpy.empty(total, numpy.uint8)
        self.mpi_comm.Alltoallv([sbuf, (scounts, sdispls), MPI.BYTE],
                                [rbuf, (rcounts, rdispls), MPI.BYTE])
        return _unpack(rbuf, incoming, rdispls)

    # -- objects ---------------------------------------------------------

    def send_obj(self, obj, dest, tag=0):
        """Send a picklable object to ``dest``."""
        self.mpi_comm.send(obj, dest=dest, tag=tag)

    def recv_obj(self, source, status=None, tag=None):
        """Receive an object from ``source`` (``tag`` None: any tag;
        ``status``: an ``MPI.Status`` to fill)."""
        if tag is None:
            tag = self._MPI.ANY_TAG
        return self.mpi_comm.recv(source=source, tag=tag, status=status)

    def bcast_obj(self, obj, max_buf_len=None, root=0):
        """The object of ``root`` on every process, pickled and sent in
        chunks of at most ``max_buf_len`` bytes (256 MiB by default)."""
        MPI = self._MPI
        if max_buf_len is None:
            max_buf_len = _DEFAULT_MAX_BUF_LEN
        if not 0 < max_buf_len < 2 ** 31:
            raise ValueError('bcast_obj: max_buf_len must be in [1, 2**31), '
                             'got {}'.format(max_buf_len))
        data = None
        info = None
        if self._rank == root:
            try:
                data = bytearray(pickle.dumps(
                    obj, protocol=pickle.HIGHEST_PROTOCOL))
                info = len(data)
            except Exception as e:
                info = _RemoteError(TypeError, 'cannot pickle the object: '
                                    '{}: {}'.format(type(e).__name__, e),
                                    self._rank)
        info = self.mpi_comm.bcast(info, root=root)
        _raise_any([info], 'bcast_obj')
        if data is None:
            data = bytearray(info)
        view = memoryview(data)
        for start in range(0, info, max_buf_len):
            chunk = view[start:start + max_buf_len]
            self.mpi_comm.Bcast([chunk, MPI.BYTE], root=root)
        if self._rank == root:
            return obj
        return pickle.loads(data)

    def gather_obj(self, obj, root=0):
        """The objects of every process as a list (in rank order) on
        ``root``; None elsewhere."""
        return self.mpi_comm.gather(obj, root=root)

    def allgather_obj(self, obj):
        """The objects of every process as a list, on every process."""
        return self.mpi_comm.allgather(obj)

    def allreduce_obj(self, obj):
        """The sum (``+``) of the objects of every process."""
        return self.mpi_comm.allreduce(obj, op=self._MPI.SUM)

    # -- models ----------------------------------------------------------

    def bcast_data(self, model):
        """Copy every initialised parameter of ``model`` from rank 0 to the
        other processes (one broadcast of all of them, packed).

        Raises:
            ValueError: on every process, when the models differ in their
                parameters' names, shapes or dtypes.
        """
        MPI = self._MPI
        entries = self._same_params(model)
        if self._size == 1 or not entries:
            return
        headers = [(tuple(p.shape), numpy.dtype(p.dtype).str, None)
                   for _, p in entries]
        if self._rank == 0:
            buf, _, _ = _pack([_mpi.host_array(p.array) for _, p in entries],
                              headers)
        else:
            buf = numpy.empty(_layout(headers)[2], numpy.uint8)
        self.mpi_comm.Bcast([buf, MPI.BYTE], root=0)
        if self._rank == 0:
            return
        from chainer_core import backend
        values = _unpack(buf, headers, _layout(headers)[1])
        for (_, p), v in zip(entries, values):
            backend.copyto(p.array, v)

    def _same_params(self, model, local_error=None):
        """``(name, param)`` of the initialised parameters of ``model``,
        sorted by name, once every process has checked that its model has
        the same names, shapes and dtypes as rank 0's.

        ``local_error`` (a message, or None) is this process's own reason
        to fail; every process raises it too, instead of waiting.
        """
        entries = [(name, p) for name, p in sorted(model.namedparams(),
                                                   key=lambda np: np[0])
                   if p.array is not None]
        signature = repr([(name, tuple(p.shape), numpy.dtype(p.dtype).str)
                          for name, p in entries]).encode()
        every = self.mpi_comm.allgather((zlib.crc32(signature), local_error))
        for r, (_, error) in enumerate(every):
            if error is not None:
                raise ValueError('bcast_data (raised on rank {}): {}'.format(
                    r, error))
        for r, (digest, _) in enumerate(every):
            if digest != every[0][0]:
                raise ValueError(
                    'bcast_data: the model on rank {} has other parameters '
                    '(names, shapes or dtypes) than on rank 0'.format(r))
        return entries

    def _grad_entries(self, model, zero_fill):
        """``(param, grad)`` of the parameters averaged, sorted by name so
        that every process packs them in the same order."""
        entries = []
        for _, p in sorted(model.namedparams(), key=lambda np: np[0]):
            if p.array is None:
                continue
            g = p.grad
            if g is None and not zero_fill:
                continue
            entries.append((p, g))
        return entries

    def _grad_dtype(self, entries):
        if self._allreduce_grad_dtype is not None:
            return self._allreduce_grad_dtype
        return numpy.result_type(*[p.dtype for p, _ in entries])

    def _check_grad_layout(self, entries):
        """In debug mode: every process must average the same parameters
        (raises on every process otherwise)."""
        from chainer_core import configuration
        if not configuration.config.debug:
            return
        signature = repr([(tuple(p.shape), str(p.dtype))
                          for p, _ in entries]).encode()
        digests = self.mpi_comm.allgather(zlib.crc32(signature))
        for r, d in enumerate(digests):
            if d != digests[0]:
                raise ValueError(
                    'multi_node_mean_grad: rank {} averages other gradients '
                    '(count, shapes or dtypes) than rank 0; some parameter '
                    'has no gradient on one process only: pass '
                    'zero_fill=True'.format(r))


def _f16_sum(inbuf, outbuf, datatype):
    a = numpy.frombuffer(inbuf, numpy.float16)
    b = numpy.frombuffer(outbuf, numpy.float16)
    numpy.add(a, b, out=b)
