"""A stand-in for one GPU and NCCL, on the host: NumPy arrays, MPI for the
sums and broadcasts, and streams that only record where work was queued.

It lets the logic of the 'pure_nccl' communicator and of double buffering
(packing, dtypes, scaling, zero-filled gradients, which stream does what)
run on machines without a GPU; the real CUDA and NCCL calls are checked by
the same script with a GPU (``pure_nccl.py gpu``).
"""
import contextlib

import numpy

from chainer_mn.communicators import pure_nccl_communicator


class Stream:
    def __init__(self, gpu, name):
        self._gpu = gpu
        self.name = name

    def __enter__(self):
        self._gpu._stack.append(self)
        return self

    def __exit__(self, *exc):
        self._gpu._stack.pop()


class HostNccl:
    """What :class:`CudaNccl` offers, on the host. ``log`` lists the
    communication and stream operations, in order."""

    xp = numpy
    name = '@numpy'

    def __init__(self, comm, device_id=None):
        self._comm = comm
        self.device_id = device_id
        self._stack = [Stream(self, 'default')]
        self._streams = 0
        self.log = []
        self.connected = False

    def unique_id(self):
        return b'host-nccl'

    def connect(self, size, unique_id, rank):
        assert unique_id == b'host-nccl' and size == self._comm.size and \
            rank == self._comm.rank
        self.connected = True

    def close(self):
        self.connected = False

    def activate(self):
        return contextlib.nullcontext()

    def handles(self, device):
        return device is None

    def owns(self, array):
        return type(array) is numpy.ndarray

    def current_stream(self):
        return self._stack[-1]

    def new_stream(self):
        self._streams += 1
        return Stream(self, 'side{}'.format(self._streams))

    def wait(self, waiting, other):
        self.log.append(('wait', waiting.name, other.name))

    def supports(self, dtype):
        return numpy.dtype(dtype).name in (
            'int8', 'uint8', 'int32', 'uint32', 'int64', 'uint64', 'float16',
            'float32', 'float64')

    def allreduce(self, array, stream):
        assert self.connected and array.flags.c_contiguous
        self.log.append(('allreduce', stream.name, array.dtype.name,
                         array.size))
        mpi = self._comm.mpi_comm
        from mpi4py import MPI
        # NCCL adds float16 in float16; a float32 sum rounded once is as
        # close as this stand-in needs to be.
        wide = array.astype(numpy.float32) if array.dtype == numpy.float16 \
            else array
        mpi.Allreduce(MPI.IN_PLACE, wide, op=MPI.SUM)
        if wide is not array:
            array[...] = wide

    def bcast(self, array, root, stream):
        assert self.connected and array.flags.c_contiguous
        self.log.append(('bcast', stream.name, array.dtype.name, array.size))
        from mpi4py import MPI
        self._comm.mpi_comm.Bcast([array.view(numpy.uint8), MPI.BYTE],
                                  root=root)


def install():
    """Make 'pure_nccl' communicators of this process use :class:`HostNccl`
    (and ``create_communicator('pure_nccl')`` available)."""
    pure_nccl_communicator.unavailable_reason = lambda: ''
    pure_nccl_communicator.open_gpu = HostNccl
