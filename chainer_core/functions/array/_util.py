"""Parameter checks and small graph helpers shared by the array ops."""
import numbers

import numpy

from chainer_core._runtime.host import host
from chainer_core.utils import type_check
from chainer_core.variable import Variable


def is_int(value):
    """Whether ``value`` is an integer (Python or NumPy), not a bool."""
    return isinstance(value, (numbers.Integral, numpy.integer)) and \
        not isinstance(value, (bool, numpy.bool_))


def check_int(value, op, name):
    """``value`` as an int; TypeError naming ``op`` and ``name`` if it is
    not an integer."""
    if not is_int(value):
        raise TypeError('{}: {} must be an int, got {!r} of type {}'.format(
            op, name, value, type(value).__name__))
    return int(value)


def check_axes(value, op, name):
    """``value`` (an int or a sequence of ints) as a tuple of ints."""
    if is_int(value):
        return (int(value),)
    if isinstance(value, (tuple, list)) and all(is_int(a) for a in value):
        return tuple(int(a) for a in value)
    raise TypeError('{}: {} must be an int or a tuple of ints, got {!r}'
                    .format(op, name, value))


def normalize_axis(axis, ndim, op, name='axis'):
    """``axis`` in ``[0, ndim)``; ValueError naming ``op`` and ``name`` if
    it is outside ``[-ndim, ndim)``."""
    if not -ndim <= axis < ndim:
        raise ValueError('{}: {} {} is out of bounds for an input of ndim {}'
                         .format(op, name, axis, ndim))
    return axis % ndim


def expect_axis(x_type, axis, name='axis', extra=0):
    """Type-check that ``axis`` indexes ``x_type`` (``extra`` more
    positions allowed, e.g. 1 where a new axis is inserted)."""
    a = type_check.make_variable(axis, name)
    ndim = x_type.ndim + extra if extra else x_type.ndim
    if axis >= 0:
        type_check.expect(ndim > a)
    else:
        type_check.expect(-ndim <= a)


def expect_integer_dtype(t, name):
    """Type-check that the input type ``t`` (named ``name``) holds signed
    or unsigned integers."""
    kind = type_check.eval(t.dtype.kind)
    if kind not in ('i', 'u'):
        raise type_check.InvalidType(
            '{}.dtype.kind in (i, u)'.format(name),
            '{}.dtype = {}'.format(name, type_check.eval(t.dtype).name))


def input_names(in_types, name):
    """``('xs[0]', 'xs[1]', ...)``: names of a variable number of inputs."""
    return tuple('{}[{}]'.format(name, i) for i in range(len(in_types)))


def device_of(array):
    """The device ``array`` lives on."""
    return host.device_from_array(array)


def xp_of(array):
    """The array namespace of ``array``."""
    return host.device_from_array(array).xp


def as_index_array(indices, like):
    """``indices`` as an array on the device of ``like`` (a Variable or an
    array) if it is a list or tuple; otherwise unchanged."""
    if isinstance(indices, (list, tuple)):
        if isinstance(like, Variable):
            like = like.array
        return xp_of(like).asarray(indices)
    return indices


def zeros(like, shape, dtype):
    """A constant Variable of zeros on the device of the array ``like``."""
    return Variable(xp_of(like).zeros(shape, dtype=dtype),
                    requires_grad=False)


def fill_none_grads(grad_outputs, shapes, dtype):
    """Output gradients with None replaced by zeros of the output's shape
    (``shapes`` of the outputs, recorded in forward)."""
    like = next(g.array for g in grad_outputs if g is not None)
    return [zeros(like, s, dtype) if g is None else g
            for g, s in zip(grad_outputs, shapes)]
