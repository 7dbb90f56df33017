"""Differentiable building blocks the models share: bounding by tanh, the
lower-triangular factor of NAF's advantage matrix and the mellowmax
operator with its maximum-entropy policy."""
import math
import numbers

import numpy

import chainer_core as chainer
import chainer_core.functions as F

from chainer_rl import _arrays


def _uniform_bound(value, dtype, shape):
    """A bound given as a number, or as a host array of a shape that
    broadcasts to ``shape`` holding one value throughout, as a scalar of
    ``dtype``; None for anything else."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return dtype.type(value)
    if type(value) is numpy.ndarray and value.size and (
            value.shape == shape or value.size == 1):
        flat = value.ravel()
        if (flat == flat[0]).all():
            return dtype.type(flat[0])
    return None


def bound_by_tanh(x, low, high):
    """Map ``x`` into the box ``[low, high]`` by ``tanh``.

    Args:
        x (~chainer_core.Variable): values of shape ``(batch_size, n)``.
        low, high (array-like): bounds of shape ``(n,)`` (or scalars).

    Returns:
        ~chainer_core.Variable: ``mid + tanh(x) * half_width``.
    """
    if low is None or high is None:
        raise ValueError('bound_by_tanh: low and high must both be given, '
                         'got low={!r}, high={!r}'.format(low, high))
    x = _arrays.as_variable('bound_by_tanh', 'x', x)
    dtype = numpy.dtype(x.dtype)
    lo = _uniform_bound(low, dtype, x.shape[1:])
    hi = _uniform_bound(high, dtype, x.shape[1:])
    if lo is not None and hi is not None:
        # One bound for every dimension (a policy's usual case): scalar
        # arithmetic in x's dtype, no per-call arrays sent to the device,
        # the same results as the broadcast path below.
        if hi < lo:
            raise ValueError('bound_by_tanh: high must not be below low, '
                             'got low={}, high={}'.format(low, high))
        half = (hi - lo) / 2
        mid = (hi + lo) / 2
        y = F.tanh(x)
        if half != 1:
            y = y * half
        if mid != 0:
            y = y + mid
        return y
    low = numpy.asarray(_arrays.to_host(low), dtype=x.dtype)
    high = numpy.asarray(_arrays.to_host(high), dtype=x.dtype)
    if numpy.any(high < low):
        raise ValueError('bound_by_tanh: high must not be below low, got '
                         'low={}, high={}'.format(low, high))
    half = numpy.broadcast_to((high - low) / 2, x.shape[1:])
    mid = numpy.broadcast_to((high + low) / 2, x.shape[1:])
    half = F.broadcast_to(_arrays.like(half[None], x), x.shape)
    mid = F.broadcast_to(_arrays.like(mid[None], x), x.shape)
    return F.tanh(x) * half + mid


def tanh_bounder(owner, flag, enabled, min_action, max_action):
    """None unless ``enabled`` (a policy's ``flag`` argument); otherwise
    ``x -> bound_by_tanh(x, min_action, max_action)``, which needs both
    bounds."""
    if not enabled:
        return None
    if min_action is None or max_action is None:
        raise ValueError('{}: {} needs min_action and max_action, got '
                         'min_action={!r}, max_action={!r}'.format(
                             owner, flag, min_action, max_action))

    def bound(x):
        return bound_by_tanh(x, min_action, max_action)
    return bound


def lower_triangular_matrix(diag, non_diag):
    """Batched lower-triangular matrices from their diagonals and their
    strictly lower entries (row-major, the order of
    ``numpy.tril_indices(n, -1)``).

    Args:
        diag (~chainer_core.Variable): shape ``(batch_size, n)``.
        non_diag (~chainer_core.Variable): shape
            ``(batch_size, n * (n - 1) // 2)``.

    Returns:
        ~chainer_core.Variable: shape ``(batch_size, n, n)``.
    """
    owner = 'lower_triangular_matrix'
    diag = _arrays.as_variable(owner, 'diag', diag, ndim=2)
    non_diag = _arrays.as_variable(owner, 'non_diag', non_diag, ndim=2)
    batch_size, n = diag.shape
    if non_diag.shape != (batch_size, n * (n - 1) // 2):
        raise ValueError(
            '{}: non_diag must have shape {} for diag of shape {}, got {}'
            .format(owner, (batch_size, n * (n - 1) // 2), diag.shape,
                    non_diag.shape))
    # Column 0 of the source holds zeros (the upper triangle), then the
    # diagonal, then the strictly lower entries.
    index = numpy.zeros((n, n), dtype=numpy.int32)
    index[numpy.arange(n), numpy.arange(n)] = 1 + numpy.arange(n)
    rows, cols = numpy.tril_indices(n, -1)
    index[rows, cols] = 1 + n + numpy.arange(len(rows))
    zeros = _arrays.like(numpy.zeros((batch_size, 1), diag.dtype), diag)
    source = F.concat((chainer.Variable(zeros, requires_grad=False), diag,
                       non_diag), axis=1)
    flat = source[:, _arrays.like(index.ravel(), diag)]
    return F.reshape(flat, (batch_size, n, n))


def mellowmax(values, omega=1., axis=1):
    """Mellowmax, ``log(mean(exp(omega * values))) / omega`` along
    ``axis`` (Asadi and Littman, 2017)."""
    omega = _arrays.check_real('mellowmax', 'omega', omega)
    if omega == 0:
        raise ValueError('mellowmax: omega must be nonzero, got 0')
    values = _arrays.as_variable('mellowmax', 'values', values)
    n = values.shape[axis]
    return (F.logsumexp(omega * values, axis=axis) - math.log(n)) / omega


def _solve_beta(values, omega, iterations=200):
    """The inverse temperature of the maximum-entropy mellowmax policy of
    each row of the host array ``values`` (float64), by bisection.

    The root of ``sum_a exp(beta (q_a - mm)) (q_a - mm)`` is unique and not
    negative, since the function increases in beta and is not positive at
    0 (mellowmax is at least the mean)."""
    q = values.astype(numpy.float64)
    q_max = q.max(axis=1, keepdims=True)
    mm = q_max + numpy.log(numpy.mean(
        numpy.exp(omega * (q - q_max)), axis=1, keepdims=True)) / omega
    adv = q - mm
    scale = numpy.abs(q - q_max).max(axis=1, keepdims=True)
    flat = scale[:, 0] == 0

    def f(beta):
        # Divided by exp(beta * max(adv)) to stay finite.
        w = numpy.exp(beta * (adv - adv.max(axis=1, keepdims=True)))
        return numpy.sum(w * adv, axis=1, keepdims=True)

    lo = numpy.zeros_like(scale)
    hi = numpy.ones_like(scale)
    for _ in range(64):
        short = (f(hi) < 0) & ~flat[:, None]
        if not short.any():
            break
        hi = numpy.where(short, hi * 2, hi)
    for _ in range(iterations):
        mid = (lo + hi) / 2
        below = f(mid) < 0
        lo = numpy.where(below, mid, lo)
        hi = numpy.where(below, hi, mid)
    beta = (lo + hi) / 2
    beta[flat] = 0
    return beta


def maximum_entropy_mellowmax(values, omega=1.):
    """Probabilities of the maximum-entropy mellowmax policy over the last
    axis of ``values`` (batch_size, n_actions).

    The policy is the Boltzmann distribution ``softmax(beta * values)``
    whose expected advantage over mellowmax is zero. beta is found on the
    host and held constant: gradients flow through ``values`` only."""
    owner = 'maximum_entropy_mellowmax'
    omega = _arrays.check_real(owner, 'omega', omega)
    if omega <= 0:
        raise ValueError('{}: omega must be positive, got {}'.format(
            owner, omega))
    values = _arrays.as_variable(owner, 'values', values, ndim=2)
    beta = _solve_beta(_arrays.to_host(values.array), omega)
    beta = _arrays.like(beta.astype(values.dtype), values)
    return F.softmax(F.broadcast_to(beta, values.shape) * values, axis=1)
