"""Helpers shared by the communicating functions."""
import numpy

from chainer_core import backend
from chainer_core.configuration import config
from chainer_core.variable import Variable


def check_peer(comm, rank, where):
    if not isinstance(rank, (int, numpy.integer)) or \
            not 0 <= rank < comm.size:
        raise ValueError('{}: rank must be in [0, {}), got {!r}'.format(
            where, comm.size, rank))
    if rank == comm.rank:
        raise ValueError('{}: rank {} is this process itself; sending to '
                         'oneself would deadlock'.format(where, rank))


def check_root(comm, root, where):
    if not isinstance(root, (int, numpy.integer)) or \
            not 0 <= root < comm.size:
        raise ValueError('{}: root must be in [0, {}), got {!r}'.format(
            where, comm.size, root))


def array_of(x):
    return x.array if isinstance(x, Variable) else x


def device_of(x):
    return backend.get_device_from_array(array_of(x))


def on_device(device, arrays):
    """``arrays`` moved to ``device`` where they are not already there."""
    return tuple(a if device.is_array_supported(a) else device.send(a)
                 for a in arrays)


def dummy_variable(device=None):
    """A 0-dim float32 variable that requires grad: the input that makes a
    function with no real input part of the graph, so that backprop
    reaches it (and its communication happens) on this process."""
    data = numpy.zeros((), numpy.float32)
    if device is not None and not device.is_array_supported(data):
        data = device.send(data)
    return Variable(data, requires_grad=True, name='dummy_var')


def delegate_array(xp):
    """The data of a delegate variable: one float32 zero, so that
    ``delegate.backward()`` works without setting its gradient."""
    return xp.zeros((), dtype=numpy.float32)


def check_first_order(label):
    """Refuse a backward pass that records a graph (double backprop)."""
    if config.enable_backprop:
        raise RuntimeError(
            '{} does not support double backprop (its backward communicates '
            'with other processes)'.format(label))


def filled(grad_outputs, shapes, dtypes, xp):
    """The output gradients as arrays, zeros where there is none."""
    return tuple(xp.zeros(s, d) if g is None else g.array
                 for g, s, d in zip(grad_outputs, shapes, dtypes))


def zeros_like_var(a):
    return Variable(backend.get_array_module(a).zeros_like(a),
                    requires_grad=False)
