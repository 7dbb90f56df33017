"""Helpers of the scripts run under mpiexec by the tests."""
import sys

import numpy


def fail(msg):
    raise AssertionError(msg)


def check(cond, msg):
    if not cond:
        fail(msg)


def same(a, b, what):
    check(type(a) is type(b), '{}: type {} != {}'.format(
        what, type(a).__name__, type(b).__name__))
    if isinstance(a, numpy.ndarray):
        check(a.dtype == b.dtype, '{}: dtype {} != {}'.format(
            what, a.dtype, b.dtype))
        check(a.shape == b.shape, '{}: shape {} != {}'.format(
            what, a.shape, b.shape))
        check(numpy.array_equal(a, b), '{}: {} != {}'.format(what, a, b))
    else:
        check(a == b, '{}: {!r} != {!r}'.format(what, a, b))


def close(a, b, what, rtol=1e-5, atol=1e-6):
    a = numpy.asarray(a)
    b = numpy.asarray(b)
    check(a.shape == b.shape, '{}: shape {} != {}'.format(
        what, a.shape, b.shape))
    if not numpy.allclose(a, b, rtol=rtol, atol=atol):
        err = numpy.max(numpy.abs(a.astype(numpy.float64) - b))
        fail('{}: not close (max abs difference {})'.format(what, err))


def ok(comm):
    """Print 'OK <rank>', one process after the other."""
    sys.stdout.flush()
    for i in range(comm.size):
        comm.mpi_comm.Barrier()
        if i == comm.rank:
            sys.stdout.write('OK {}\n'.format(comm.rank))
            sys.stdout.flush()
