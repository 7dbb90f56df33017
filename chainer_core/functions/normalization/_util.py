"""Helpers shared by the normalization functions: argument parsing, the
axes statistics are taken over, and the precision they are computed in."""
import numbers

import numpy

from chainer_core.utils import type_check


def parse_kwargs(op, kwargs, *specs):
    """The values of the keyword arguments ``specs`` (``(name, default)``
    pairs) in ``kwargs``; Chainer's removed ``train`` argument and unknown
    names are refused, naming ``op``."""
    if 'train' in kwargs:
        raise ValueError(
            "{}: the train argument is not supported anymore; use "
            "chainer.using_config('train', ...)".format(op))
    values = tuple(kwargs.pop(name, default) for name, default in specs)
    if kwargs:
        raise TypeError('{}() got unexpected keyword argument(s) {}'.format(
            op, ', '.join(repr(k) for k in sorted(kwargs))))
    return values


def check_number(op, name, value, low=None, low_inclusive=True, high=None,
                 high_inclusive=True):
    """Refuse a parameter that is not a real number in the given range."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError('{}: {} must be a real number, got {!r}'.format(
            op, name, value))
    value = float(value)
    bad = value != value
    if low is not None:
        bad = bad or value < low or (value == low and not low_inclusive)
    if high is not None:
        bad = bad or value > high or (value == high and not high_inclusive)
    if bad:
        lo = '' if low is None else '{} {} '.format(
            low, '<=' if low_inclusive else '<')
        hi = '' if high is None else ' {} {}'.format(
            '<=' if high_inclusive else '<', high)
        raise ValueError('{}: {} must satisfy {}{}{}, got {!r}'.format(
            op, name, lo, name, hi, value))
    return value


def check_groups(op, groups):
    if isinstance(groups, bool) or not isinstance(groups, numbers.Integral):
        raise TypeError('{}: groups must be an int, got {!r}'.format(
            op, groups))
    if groups < 1:
        raise ValueError('{}: groups must be positive, got {}'.format(
            op, groups))
    return int(groups)


def parse_axis(op, axis):
    """``axis`` as None or a tuple of ints in strictly ascending order (as
    Chainer requires); anything else is refused."""
    if axis is None:
        return None
    if isinstance(axis, numbers.Integral) and not isinstance(axis, bool):
        return (int(axis),)
    if isinstance(axis, (tuple, list)) and axis and all(
            isinstance(a, numbers.Integral) and not isinstance(a, bool)
            for a in axis):
        axis = tuple(int(a) for a in axis)
        if any(a >= b for a, b in zip(axis, axis[1:])):
            raise ValueError('{}: the numbers in axis must be in strictly '
                             'ascending order, got {}'.format(op, axis))
        return axis
    raise TypeError('{}: axis must be None, an int or a non-empty tuple of '
                    'ints, got {!r}'.format(op, axis))


def reduced_axes(x_ndim, gamma_ndim, axis):
    """The axes statistics are taken over: ``axis`` modulo ``x_ndim``, or by
    default the first axis and those after the ``gamma_ndim`` channel
    axes."""
    if axis is None:
        return (0,) + tuple(range(gamma_ndim + 1, x_ndim))
    return tuple(a % x_ndim for a in axis)


def check_channel_shape(x_type, gamma_type, axis):
    """Type-check that ``gamma`` has the shape of the axes of ``x`` that
    are not reduced (``axis`` as given, already parsed)."""
    x_ndim = type_check.eval(x_type.ndim)
    gamma_ndim = type_check.eval(gamma_type.ndim)
    if axis is None:
        type_check.expect(x_type.ndim >= gamma_type.ndim + 1)
        for i in range(gamma_ndim):
            type_check.expect(x_type.shape[i + 1] == gamma_type.shape[i])
        return
    for a in axis:
        a_var = type_check.make_variable(a, 'axis')
        if a >= 0:
            type_check.expect(x_type.ndim > a_var)
        else:
            type_check.expect(x_type.ndim >= -a_var)
    reduced = reduced_axes(x_ndim, gamma_ndim, axis)
    if len(set(reduced)) != len(reduced) or list(reduced) != sorted(reduced):
        raise type_check.InvalidType(
            'distinct axes in ascending order modulo x.ndim',
            'axis = {}, x.ndim = {}'.format(axis, x_ndim))
    key = [i for i in range(x_ndim) if i not in reduced]
    type_check.expect(gamma_type.ndim == type_check.make_variable(
        len(key), 'x.ndim - len(axis)'))
    for i, k in enumerate(key):
        type_check.expect(x_type.shape[k] == gamma_type.shape[i])


def stat_shape(shape, axes):
    """``shape`` with the reduced ``axes`` set to 1 (keepdims)."""
    return tuple(1 if i in axes else s for i, s in enumerate(shape))


def wide(x):
    """``x`` in the precision statistics are computed in: float16 data are
    widened to float32, others are returned as they are."""
    if x.dtype == numpy.float16:
        return x.astype(numpy.float32)
    return x


def running_array(value):
    """The array of a running statistic given as an array or a Variable
    (updated in place either way)."""
    return getattr(value, 'array', value)


def check_running_shapes(op, shape, **arrays):
    for name, a in sorted(arrays.items()):
        if a.shape != tuple(shape):
            raise ValueError('{}: {} must have the shape {} of gamma, got {}'
                             .format(op, name, tuple(shape), a.shape))
