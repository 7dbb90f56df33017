"""Checks and gradient utilities shared by the math ops."""
import contextlib

import numpy

from chainer_core.utils import type_check


def check_float_inputs(in_types, names):
    """Expect ``len(names)`` float inputs of one dtype, named for messages."""
    type_check.expect(in_types.size() == len(names))
    type_check.argname(in_types, names)
    type_check.expect(in_types[0].dtype.kind == 'f')
    for t in in_types[1:]:
        type_check.expect(t.dtype == in_types[0].dtype)


def check_unary_float(in_types):
    """``check_type_forward`` of an op of one float input ``x``."""
    check_float_inputs(in_types, ('x',))


def parse_axis(axis, op, allow_tuple=True):
    """``axis`` as None or a tuple of ints, checked for type and duplicates.

    Bounds are checked against the input in the type check (see
    :func:`check_axes`).
    """
    if axis is None:
        return None
    if isinstance(axis, (int, numpy.integer)) and not isinstance(axis, bool):
        return (int(axis),)
    if allow_tuple and isinstance(axis, tuple) and all(
            isinstance(a, (int, numpy.integer)) and not isinstance(a, bool)
            for a in axis):
        if len(set(axis)) != len(axis):
            raise ValueError('{}: duplicate value in axis {!r}'.format(
                op, axis))
        return tuple(int(a) for a in axis)
    raise TypeError('{}: axis must be {}, got {!r}'.format(
        op, 'None, an int or a tuple of ints' if allow_tuple
        else 'None or an int', axis))


def check_axes(x_type, axes):
    """Expect every axis in ``axes`` to index ``x_type``, and no two to name
    the same axis once negative ones are wrapped."""
    if axes is None:
        return
    for a in axes:
        axis = type_check.make_variable(a, 'axis')
        if a >= 0:
            type_check.expect(axis < x_type.ndim)
        else:
            type_check.expect(-axis <= x_type.ndim)
    ndim = type_check.eval(x_type.ndim)
    wrapped = [a % ndim for a in axes]
    if len(set(wrapped)) != len(wrapped):
        raise type_check.InvalidType(
            'axis names each axis of x at most once',
            'axis = {} for x.ndim = {}'.format(axes, ndim))


def normalize_axes(axes, ndim):
    """``axes`` (None for all) as a sorted tuple of non-negative axes."""
    if axes is None:
        return tuple(range(ndim))
    return tuple(sorted(a % ndim for a in axes))


def broadcast_reduced(gy, shape, axes, keepdims):
    """Broadcast a gradient of a reduction over ``axes`` (normalized) back
    to the input ``shape``."""
    from chainer_core.functions.array.broadcast import broadcast_to
    from chainer_core.functions.array.reshape import reshape
    if not keepdims:
        kept = tuple(1 if i in axes else s for i, s in enumerate(shape))
        gy = reshape(gy, kept)
    return broadcast_to(gy, shape)


def sum_to_shape(g, shape):
    """``g`` summed over the axes along which ``shape`` was broadcast."""
    if g.shape == tuple(shape):
        return g
    from chainer_core.functions.math.sum import sum_to
    return sum_to(g, shape)


def compute_dtype(dtype):
    """The dtype a special function is evaluated in: float16 goes through
    float32, whose range and precision the series need."""
    return numpy.float32 if dtype == numpy.float16 else dtype


def nondifferentiable(op, x):
    """Run kernel ``op`` on the array of ``x`` and wrap the result in a
    Variable that is not part of the graph (floor, ceil, fix, sign)."""
    from chainer_core._runtime import kernels
    from chainer_core.variable import Variable, as_array
    x = as_array(x)
    if not hasattr(x, 'dtype') or not hasattr(x, 'shape'):
        raise TypeError('{}: x must be a Variable or an array, got {}'.format(
            op, type(x).__name__))
    return Variable(kernels.lookup(op, x)(x), requires_grad=False)


class _LinAlgError(numpy.linalg.LinAlgError, ValueError):
    pass


@contextlib.contextmanager
def linalg_errors_are_value_errors():
    """Within the block, a ``numpy.linalg.LinAlgError`` is raised as one
    that is also a ``ValueError``, as NumPy >= 2.0 makes it; NumPy 1.x's is
    not, and the ops promise a ValueError on every NumPy."""
    try:
        yield
    except numpy.linalg.LinAlgError as e:
        if isinstance(e, ValueError):
            raise
        raise _LinAlgError(*e.args) from e
