"""Argument checks and array code shared by the pooling ops."""
import functools

import numpy

from chainer_core.utils import conv
from chainer_core.utils import conv_nd


def prod(values):
    out = 1
    for v in values:
        out *= v
    return out


def check_window(name, ndim, ksize, stride, pad):
    """``(ksize, stride, pad)`` as tuples of ndim ints (stride None means
    ksize), or a TypeError/ValueError naming ``name`` and the argument."""
    out = []
    for arg, value, low in (('ksize', ksize, 1),
                            ('stride', ksize if stride is None else stride,
                             1),
                            ('pad', pad, 0)):
        try:
            t = conv_nd.as_tuple(value, ndim, arg)
        except (TypeError, ValueError) as e:
            raise type(e)('{}: {}'.format(name, e)) from None
        if any(v < low for v in t):
            raise ValueError('{}: {} must be >= {}, got {!r}'.format(
                name, arg, low, value))
        out.append(t)
    return tuple(out)


def pooled_dims(name, in_dims, ksize, stride, pad, cover_all):
    out = tuple(conv.get_conv_outsize(d, k, s, p, cover_all)
                for d, k, s, p in zip(in_dims, ksize, stride, pad))
    if any(o <= 0 for o in out):
        raise ValueError(
            '{}: the output would have the spatial shape {}: x (spatial '
            'shape {}) is too small for ksize {} with pad {}'.format(
                name, out, tuple(in_dims), ksize, pad))
    return out


def window_positions(xp, indexes, ksize, stride, pad, in_dims):
    """Where the window taps ``indexes`` (N, C, *out), each in
    ``[0, prod(ksize))``, point in the input: their flat indices into the
    spatial axes of ``in_dims`` and whether they fall inside it (a tap in
    the padding does not)."""
    n = len(ksize)
    out_dims = indexes.shape[2:]
    rest = indexes.astype(numpy.int64)
    taps = [None] * n
    for d in reversed(range(n)):
        taps[d] = rest % ksize[d]
        rest = rest // ksize[d]
    flat = 0
    inside = True
    for d in range(n):
        shape = [1] * (2 + n)
        shape[2 + d] = out_dims[d]
        start = (xp.arange(out_dims[d], dtype=numpy.int64) * stride[d] -
                 pad[d]).reshape(shape)
        coord = start + taps[d]
        inside = inside & (coord >= 0) & (coord < in_dims[d])
        flat = flat * in_dims[d] + coord
    return xp.where(inside, flat, 0), inside


def scatter_to_windows(xp, values, indexes, ksize, stride, pad, in_dims):
    """An image of shape (N, C, *in_dims) that is zero except that each
    value of ``values`` (N, C, *out) is added at the input pixel its window
    tap ``indexes`` points at."""
    n_b, n_c = values.shape[:2]
    size = prod(in_dims)
    flat, inside = window_positions(xp, indexes, ksize, stride, pad,
                                    in_dims)
    base = (xp.arange(n_b * n_c, dtype=numpy.int64) * size).reshape(
        (n_b, n_c) + (1,) * len(ksize))
    weights = xp.where(inside, values.astype(numpy.float64), 0)
    out = xp.bincount((base + flat).ravel(), weights=weights.ravel(),
                      minlength=n_b * n_c * size)
    return out.reshape((n_b, n_c) + tuple(in_dims)).astype(values.dtype)


def gather_from_windows(xp, image, indexes, ksize, stride, pad):
    """The pixels of ``image`` (N, C, *in) that the window taps
    ``indexes`` (N, C, *out) point at (zero for taps in the padding)."""
    n_b, n_c = image.shape[:2]
    flat, inside = window_positions(xp, indexes, ksize, stride, pad,
                                    image.shape[2:])
    picked = xp.take_along_axis(
        image.reshape(n_b, n_c, prod(image.shape[2:])),
        flat.reshape(n_b, n_c, prod(indexes.shape[2:])), axis=2)
    picked = picked.reshape(indexes.shape)
    return xp.where(inside, picked, xp.zeros((), dtype=image.dtype))


def fixed_ndim(nd_function, ndim):
    """``nd_function`` (an N-dimensional pooling op) for inputs with
    exactly ``ndim`` spatial axes: Chainer's ``*_1d`` and ``*_3d``
    functions, which take the arguments of the N-dimensional one."""
    name = nd_function.__name__.replace('_nd', '_{}d'.format(ndim))

    @functools.wraps(nd_function)
    def function(x, *args, **kwargs):
        if len(x.shape) != ndim + 2:
            raise ValueError(
                '{}: x must have {} axes (N, C and {} spatial), got shape '
                '{}'.format(name, ndim + 2, ndim, tuple(x.shape)))
        return nd_function(x, *args, **kwargs)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = (
        '{}-dimensional :func:`{}`: ``x`` has the shape ``(N, C, {})``; '
        'the other arguments and the result are those of :func:`{}`.'
        .format(ndim, nd_function.__name__,
                ', '.join('d_{}'.format(i + 1) for i in range(ndim)),
                nd_function.__name__))
    return function
