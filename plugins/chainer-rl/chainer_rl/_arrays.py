"""Small utilities the model modules share: moving host arrays next to a
Variable (ops refuse inputs of two devices), host-side random draws (so
``numpy.random.seed`` governs every device alike) and argument checks with
messages that name the caller."""
import numbers

import numpy

import chainer_core as chainer


def is_array(value):
    """Whether ``value`` is an array of some device (not a Variable)."""
    return (hasattr(value, 'shape') and hasattr(value, 'dtype')
            and not isinstance(value, (chainer.Variable, numpy.generic)))


def unwrap(x):
    """The array of a Variable, or ``x`` itself."""
    return x.array if isinstance(x, chainer.Variable) else x


def device_of(x):
    """The device an array or Variable lives on."""
    return chainer.backend.get_device_from_array(unwrap(x))


def to_host(x):
    """A NumPy copy (or view) of an array or Variable of any device."""
    array = unwrap(x)
    if type(array) is numpy.ndarray:
        return array
    return numpy.asarray(chainer.get_device('@numpy').send(array))


def like(array, ref, dtype=None):
    """``array`` (a NumPy array, number or device array) on the device of
    ``ref`` and, when given, of ``dtype``."""
    if isinstance(array, chainer.Variable):
        array = array.array
    device = device_of(ref)
    if not is_array(array):
        array = numpy.asarray(array, dtype=dtype)
    elif dtype is not None and numpy.dtype(array.dtype) != numpy.dtype(dtype):
        array = array.astype(dtype)
    if device_of(array) != device:
        array = device.send(to_host(array))
    return array


def as_variable(owner, name, value, ndim=None, float_only=True):
    """``value`` as a Variable, checked: a float array or Variable of
    ``ndim`` dimensions (any when None)."""
    if isinstance(value, chainer.Variable):
        var = value
    elif is_array(value):
        var = chainer.Variable(value, requires_grad=False)
    else:
        raise TypeError(
            '{}: {} must be a Variable or an array, got {}'.format(
                owner, name, type(value).__name__))
    if float_only and numpy.dtype(var.dtype).kind != 'f':
        raise TypeError('{}: {} must hold floats, got dtype {}'.format(
            owner, name, var.dtype))
    if ndim is not None and var.ndim not in (
            ndim if isinstance(ndim, tuple) else (ndim,)):
        raise ValueError(
            '{}: {} must have {} dimensions, got shape {}'.format(
                owner, name, ' or '.join(str(n) for n in (
                    ndim if isinstance(ndim, tuple) else (ndim,))),
                var.shape))
    return var


def standard_normal(shape, dtype, ref):
    """Standard normal draws of NumPy's global generator, on ``ref``'s
    device."""
    eps = numpy.random.standard_normal(shape).astype(dtype)
    return like(eps, ref)


def check_int(owner, name, value, minimum=None):
    """``value`` as an int, refusing bools, floats and values below
    ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError('{}: {} must be an int, got {!r}'.format(
            owner, name, value))
    if minimum is not None and value < minimum:
        raise ValueError('{}: {} must be at least {}, got {}'.format(
            owner, name, minimum, value))
    return int(value)


def check_real(owner, name, value, low=None, high=None):
    """``value`` as a float, refusing bools and non-numbers, and values
    outside ``[low, high]`` (either may be None)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError('{}: {} must be a real number, got {!r}'.format(
            owner, name, value))
    value = float(value)
    if (low is not None and value < low) or (high is not None
                                             and value > high):
        raise ValueError('{}: {} must be in [{}, {}], got {}'.format(
            owner, name, '-inf' if low is None else low,
            'inf' if high is None else high, value))
    return value


def check_choice(owner, name, value, choices):
    """``value`` if it is one of ``choices``."""
    if value not in choices:
        raise ValueError('{}: {} must be one of {}, got {!r}'.format(
            owner, name, ', '.join(repr(c) for c in choices), value))
    return value


def check_callable(owner, name, value, allow_none=False):
    """``value`` if it is callable (or None where allowed)."""
    if value is None and allow_none:
        return value
    if not callable(value):
        raise TypeError('{}: {} must be callable, got {!r}'.format(
            owner, name, value))
    return value


def check_obs_shapes(where, batch_obs, expected, seen):
    """The shape the observations of ``batch_obs`` that have one share
    (None if none has one), which must be ``expected`` unless that is
    None; a ValueError names ``where`` and says the expected shape is
    that of the observations ``seen``."""
    for i, obs in enumerate(batch_obs):
        shape = getattr(obs, 'shape', None)
        if shape is None:
            continue
        shape = tuple(shape)
        if expected is None:
            expected = shape
        elif shape != expected:
            raise ValueError(
                '{}: observation {} has shape {}, expected {} (the shape '
                'of the observations {})'.format(where, i, shape, expected,
                                                 seen))
    return expected


def count_obs(where, batch_obs, expected, seen='this agent has seen'):
    """The number of observations in ``batch_obs``, which must be a
    non-empty sequence of observations of one shape (see
    ``check_obs_shapes``)."""
    try:
        n = len(batch_obs)
    except TypeError:
        raise TypeError('{}: batch_obs must be a sequence with one '
                        'observation per env, got {}'.format(
                            where, type(batch_obs).__name__))
    if n == 0:
        raise ValueError('{}: batch_obs is empty; expected one '
                         'observation per env'.format(where))
    check_obs_shapes(where, batch_obs, expected, seen)
    return n


def action_indices(owner, actions, batch_size, ref):
    """Integer action indices of shape ``(batch_size,)`` on ``ref``'s
    device."""
    array = unwrap(actions)
    if not is_array(array):
        array = numpy.asarray(array)
    if numpy.dtype(array.dtype).kind not in 'iu':
        raise TypeError('{}: actions must be integer indices, got dtype {}'
                        .format(owner, array.dtype))
    if tuple(array.shape) != (batch_size,):
        raise ValueError('{}: actions must have shape ({},), got {}'.format(
            owner, batch_size, tuple(array.shape)))
    return like(array, ref)


def keep_batch_axis(i):
    """An index of the batch axis that keeps it: an int ``i`` becomes the
    slice of that one row."""
    if isinstance(i, (int, numpy.integer)) and not isinstance(i, bool):
        return slice(i, i + 1) if i != -1 else slice(-1, None)
    return i


def hidden_sizes(owner, n_hidden_layers, n_hidden_channels):
    """``[n_hidden_channels] * n_hidden_layers``, checked."""
    n_hidden_layers = check_int(owner, 'n_hidden_layers', n_hidden_layers,
                                0)
    if n_hidden_layers == 0:
        return []
    if n_hidden_channels is None:
        raise ValueError('{}: n_hidden_channels must be given when '
                         'n_hidden_layers is {}'.format(owner,
                                                        n_hidden_layers))
    n_hidden_channels = check_int(owner, 'n_hidden_channels',
                                  n_hidden_channels, 1)
    return [n_hidden_channels] * n_hidden_layers
