"""Pickled objects between two processes, in bounded chunks."""
import pickle

import numpy


def mpi_comm_of(comm):
    """The mpi4py communicator of a chainer_mn communicator (or itself)."""
    return getattr(comm, 'mpi_comm', comm)


def send_chunked(mpi_comm, obj, dest, max_buf_len, tag=0):
    from chainer_mn import _mpi
    MPI = _mpi.get_mpi()
    data = numpy.frombuffer(
        pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL), numpy.uint8)
    mpi_comm.send(data.size, dest=dest, tag=tag)
    for start in range(0, data.size, max_buf_len):
        mpi_comm.Send([data[start:start + max_buf_len], MPI.BYTE], dest=dest,
                      tag=tag)


def recv_chunked(mpi_comm, source, max_buf_len, tag=0):
    from chainer_mn import _mpi
    MPI = _mpi.get_mpi()
    n = mpi_comm.recv(source=source, tag=tag)
    data = numpy.empty(n, numpy.uint8)
    for start in range(0, n, max_buf_len):
        mpi_comm.Recv([data[start:start + max_buf_len], MPI.BYTE],
                      source=source, tag=tag)
    return pickle.loads(data)


def bcast_chunked(mpi_comm, obj, root, max_buf_len):
    from chainer_mn import _mpi
    MPI = _mpi.get_mpi()
    data = None
    if mpi_comm.Get_rank() == root:
        data = numpy.frombuffer(
            pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL),
            numpy.uint8).copy()
    n = mpi_comm.bcast(None if data is None else data.size, root=root)
    if data is None:
        data = numpy.empty(n, numpy.uint8)
    for start in range(0, n, max_buf_len):
        mpi_comm.Bcast([data[start:start + max_buf_len], MPI.BYTE], root=root)
    if mpi_comm.Get_rank() == root:
        return obj
    return pickle.loads(data)
