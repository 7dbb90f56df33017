"""Shared pieces of the distributions: parameter and input checks, random
sources, and special functions composed from differentiable ops."""
import math
import numbers

import numpy

import chainer_core
from chainer_core import backend
from chainer_core import functions as F
from chainer_core.variable import Variable

LOG_2PI = math.log(2 * math.pi)
EULER = 0.57721566490153286061
_SQRT1_2 = 1.0 / math.sqrt(2.0)


def _is_array(value):
    return hasattr(value, 'shape') and hasattr(value, 'dtype') and \
        not isinstance(value, numpy.generic)


def _kind_name(value):
    if isinstance(value, Variable) or _is_array(value):
        return 'dtype {}'.format(value.dtype)
    return type(value).__name__


def params(owner, values, event_dims=None, broadcast=True):
    """Float parameters as Variables of one dtype.

    ``values`` is a list of ``(name, value)``. Variables are kept, arrays
    are wrapped (not requiring gradients), Python numbers take the dtype of
    the array parameters (``config.dtype`` if there are none).
    ``event_dims`` maps a name to the least ndim it must have. With
    ``broadcast``, parameters of differing shapes are broadcast together.
    """
    dtype = None
    for name, value in values:
        if isinstance(value, Variable) or _is_array(value):
            if numpy.dtype(value.dtype).kind != 'f':
                raise TypeError(
                    '{}: {} must be a float array or Variable, got {}'.format(
                        owner, name, _kind_name(value)))
            if dtype is None:
                dtype = numpy.dtype(value.dtype)
            elif numpy.dtype(value.dtype) != dtype:
                raise TypeError(
                    '{}: all parameters must have one dtype, got {} for {} '
                    'and {} before it'.format(owner, value.dtype, name,
                                              dtype))
        elif not isinstance(value, numbers.Real) or \
                isinstance(value, bool):
            raise TypeError(
                '{}: {} must be a float array, Variable or number, got {}'
                .format(owner, name, type(value).__name__))
    if dtype is None:
        dtype = chainer_core.get_dtype()
    xp = backend.get_array_module(*[v for _, v in values])
    out = []
    for name, value in values:
        if isinstance(value, Variable):
            var = value
        elif _is_array(value):
            var = Variable(value, requires_grad=False)
        else:
            var = Variable(xp.asarray(value, dtype=dtype),
                           requires_grad=False)
        least = (event_dims or {}).get(name, 0)
        if var.ndim < least:
            raise ValueError(
                '{}: {} must have at least {} dimension{}, got shape {}'
                .format(owner, name, least, '' if least == 1 else 's',
                        var.shape))
        out.append(var)
    if broadcast and len(out) > 1:
        shapes = [v.shape for v in out]
        try:
            shape = numpy.broadcast_shapes(*shapes)
        except ValueError:
            names = ', '.join(n for n, _ in values)
            raise ValueError(
                '{}: the shapes of {} do not broadcast together: {}'.format(
                    owner, names, ', '.join(str(s) for s in shapes))
            ) from None
        out = [v if v.shape == shape else F.broadcast_to(v, shape)
               for v in out]
    return out


def _check_shape(owner, x, shape):
    try:
        numpy.broadcast_shapes(x.shape, shape)
    except ValueError:
        raise ValueError(
            '{}: x of shape {} does not broadcast with the distribution\'s '
            'shape {} (batch_shape + event_shape)'.format(owner, x.shape,
                                                          shape)) from None


def value(owner, x, dtype, shape):
    """A point argument of a continuous distribution as a Variable of
    ``dtype``: a Variable is kept (so gradients reach it), an array is cast
    and wrapped."""
    if isinstance(x, Variable):
        if x.dtype != dtype:
            raise TypeError('{}: x must have the dtype of the parameters, '
                            '{}, got {}'.format(owner, dtype, x.dtype))
    elif _is_array(x) or isinstance(x, (numbers.Real, numpy.generic)):
        if isinstance(x, (numbers.Real, numpy.generic)) and not _is_array(x):
            x = numpy.asarray(x)
        if numpy.dtype(x.dtype).kind not in 'fiub':
            raise TypeError('{}: x must be a real array, got {}'.format(
                owner, x.dtype))
        if x.dtype != dtype:
            x = x.astype(dtype)
    else:
        raise TypeError('{}: x must be a Variable or an array, got {}'.format(
            owner, type(x).__name__))
    _check_shape(owner, x, shape)
    # As a Variable, arithmetic on a 0-dim point stays an array.
    return x if isinstance(x, Variable) else Variable(x, requires_grad=False)


def data(owner, x, dtype, shape):
    """A point argument of a discrete distribution: an array of ``dtype``
    (points are not differentiated)."""
    if isinstance(x, Variable):
        x = x.array
    if isinstance(x, (numbers.Real, numpy.generic)) and not _is_array(x):
        x = numpy.asarray(x)
    if not _is_array(x):
        raise TypeError('{}: x must be a Variable or an array, got {}'.format(
            owner, type(x).__name__))
    if numpy.dtype(x.dtype).kind not in 'fiub':
        raise TypeError('{}: x must be a real array, got {}'.format(
            owner, x.dtype))
    _check_shape(owner, x, shape)
    return x.astype(dtype, copy=False)


def array_of(x):
    return x.array if isinstance(x, Variable) else x


def check_n(owner, n):
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError('{}.sample_n: n must be an int, got {}'.format(
            owner, type(n).__name__))
    if n < 0:
        raise ValueError('{}.sample_n: n must not be negative, got {}'.format(
            owner, n))
    return int(n)


def random(xp):
    """The random source: NumPy's global one (so numpy.random.seed governs
    sampling) or that of the parameters' array module."""
    return numpy.random if xp is numpy else xp.random


def uniform(xp, shape, dtype):
    """Uniform draws in the open interval (0, 1) (logarithms of them and of
    their complements stay finite)."""
    u = random(xp).uniform(size=shape)
    tiny = numpy.finfo(dtype).tiny
    return xp.clip(u, tiny, 1 - numpy.finfo(dtype).epsneg).astype(dtype)


def safe(x, inside, fill):
    """``x`` where ``inside``, ``fill`` elsewhere: evaluating a formula at
    safe points keeps NaNs out of gradients where the result is replaced."""
    if inside is None or bool(inside.all()):
        return x
    if isinstance(x, Variable):
        return F.where(inside, x, fill)
    xp = backend.get_array_module(x)
    return xp.where(inside, x, fill).astype(x.dtype)


def inside_mask(*conditions):
    """The conjunction of boolean arrays, None when all hold everywhere."""
    mask = conditions[0]
    for c in conditions[1:]:
        mask = mask & c
    return None if bool(mask.all()) else mask


def fill_outside(y, inside, value):
    """``y`` where ``inside`` (an array), ``value`` elsewhere."""
    if inside is None or bool(inside.all()):
        return y
    return F.where(inside, y, value)


def mul_log(c, x):
    """``c * log(x)`` for ``x >= 0`` with the limits at ``x = 0``: zero
    where ``c`` is zero, ``-inf``/``+inf`` where ``c`` is positive/negative.
    """
    xa = array_of(x)
    zero = xa == 0
    if not bool(zero.any()):
        return c * F.log(x)
    xp = backend.get_array_module(xa)
    x_safe = F.where(zero, xp.ones((), xa.dtype), x) \
        if isinstance(x, Variable) else xp.where(zero, 1, xa).astype(xa.dtype)
    y = c * F.log(x_safe)
    ca = xp.broadcast_to(xp.asarray(array_of(c)), y.shape)
    limit = xp.where(ca > 0, -xp.inf, xp.where(ca < 0, xp.inf, 0)).astype(
        y.dtype)
    return F.where(xp.broadcast_to(zero, y.shape), limit, y)


def lbeta(a, b):
    """log B(a, b)."""
    return F.lgamma(a) + F.lgamma(b) - F.lgamma(a + b)


def ndtr(z):
    """The standard normal distribution function."""
    return 0.5 * F.erfc(-_SQRT1_2 * z)


def ndtri(p):
    """The standard normal quantile function."""
    return math.sqrt(2.0) * F.erfinv(2 * p - 1)


# Below these points erfc underflows (or loses its relative accuracy) in
# the dtype; an asymptotic series of the Mills ratio takes over.
_LOG_NDTR_SWITCH = {numpy.dtype(numpy.float16): -5.0,
                    numpy.dtype(numpy.float32): -10.0,
                    numpy.dtype(numpy.float64): -20.0}


def log_ndtr(z):
    """log of the standard normal distribution function, accurate far in
    the lower tail."""
    za = array_of(z)
    switch = _LOG_NDTR_SWITCH.get(numpy.dtype(za.dtype), -20.0)
    low = za < switch
    if not bool(low.any()):
        return F.log(ndtr(z))
    xp = backend.get_array_module(za)
    t = xp.asarray(switch, dtype=za.dtype)
    z_hi = F.maximum(z, xp.broadcast_to(t, za.shape))
    z_lo = F.minimum(z, xp.broadcast_to(t, za.shape))
    hi = F.log(ndtr(z_hi))
    # log Phi(z) = -z^2/2 - log(-z) - log(2 pi)/2
    #              + log(1 - 1/z^2 + 3/z^4 - 15/z^6 + ...)
    r = 1 / F.square(z_lo)
    series = r * 0
    coef = 1.0
    term = None
    for k in range(1, 9):
        coef *= -(2 * k - 1)
        term = r if term is None else term * r
        series = series + coef * term
    lo = -0.5 * F.square(z_lo) - F.log(-z_lo) - 0.5 * LOG_2PI + \
        F.log1p(series)
    return F.where(low, lo, hi)


def sum_last(x, n):
    """Sum over the last ``n`` axes."""
    if n == 0:
        return x
    return F.sum(x, axis=tuple(range(-n, 0)))


def sample_variable(eps, dtype):
    """Drawn points as a Variable of ``dtype`` that nothing flows back
    through."""
    return Variable(eps.astype(dtype, copy=False), requires_grad=False)
