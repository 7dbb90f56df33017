"""N-dimensional patch extraction (im2col) and its adjoint (col2im).

The arrays are laid out as in Chainer: an image is ``(N, C, d_1, ..., d_n)``
and its columns are ``(N, C, k_1, ..., k_n, o_1, ..., o_n)``, where
``col[..., j_1, ..., j_n, i_1, ..., i_n]`` is the pixel the kernel tap
``j`` sees at output position ``i``. Both functions work on any array
namespace with NumPy's slicing and ``pad`` (NumPy, CuPy): they loop over the
kernel taps only, each tap being one strided copy of the whole batch.
"""
import itertools

import numpy

from chainer_core.utils import conv


def _is_int(value):
    return isinstance(value, (int, numpy.integer)) and not isinstance(
        value, bool)


def as_tuple(value, n, name='value'):
    """``value`` (an int or a sequence of n ints) as a tuple of n ints."""
    if _is_int(value):
        return (int(value),) * n
    if not isinstance(value, (tuple, list)) or not all(
            _is_int(v) for v in value):
        raise TypeError('{} must be an int or a tuple of {} ints, got {!r}'
                        .format(name, n, value))
    if len(value) != n:
        raise ValueError('{} must be an int or a tuple of {} ints, got {!r}'
                         .format(name, n, value))
    return tuple(int(v) for v in value)


def _xp_of(array, xp):
    if xp is not None:
        return xp
    if type(array) is numpy.ndarray:
        return numpy
    from chainer_core.backend import get_array_module
    return get_array_module(array)


def im2col_nd(img, ksize, stride, pad, cover_all=False, dilate=1, pval=0,
              out_dims=None, xp=None):
    """Patches of ``img`` as columns.

    Args:
        img: array of shape ``(N, C, d_1, ..., d_n)``.
        ksize, stride, pad, dilate (tuple of int or int): per spatial axis.
        cover_all (bool): extend the output so that every pixel is covered.
        pval: the value of the padding.
        out_dims (tuple of int): the output size, if it is already known.
        xp: the array namespace (found from ``img`` when omitted).

    Returns:
        array of shape ``(N, C, k_1, ..., k_n, o_1, ..., o_n)``.
    """
    xp = _xp_of(img, xp)
    n = img.ndim - 2
    ksize = as_tuple(ksize, n, 'ksize')
    stride = as_tuple(stride, n, 'stride')
    pad = as_tuple(pad, n, 'pad')
    dilate = as_tuple(dilate, n, 'dilate')
    dims = img.shape[2:]
    if out_dims is None:
        out_dims = tuple(conv.get_conv_outsize(d, k, s, p, cover_all, dl)
                         for d, k, s, p, dl in zip(dims, ksize, stride, pad,
                                                   dilate))
    # The far side is padded as far as the last window reaches (more than
    # pad with cover_all).
    widths = [(0, 0), (0, 0)]
    for d, k, s, p, dl, o in zip(dims, ksize, stride, pad, dilate,
                                 out_dims):
        reach = (o - 1) * s + (k - 1) * dl + 1
        widths.append((p, max(p, reach - d - p, 0)))
    if any(w != (0, 0) for w in widths):
        img = xp.pad(img, widths, mode='constant', constant_values=pval)
    col = xp.empty(img.shape[:2] + ksize + tuple(out_dims), dtype=img.dtype)
    lead = (slice(None), slice(None))
    for taps in itertools.product(*[range(k) for k in ksize]):
        window = tuple(slice(j * dl, j * dl + s * (o - 1) + 1, s)
                       for j, dl, s, o in zip(taps, dilate, stride,
                                              out_dims))
        col[lead + taps] = img[lead + window]
    return col


def col2im_nd(col, stride, pad, dims, dilate=1, xp=None):
    """The adjoint of :func:`im2col_nd`: columns summed back into an image.

    Args:
        col: array of shape ``(N, C, k_1, ..., k_n, o_1, ..., o_n)``.
        stride, pad, dilate (tuple of int or int): per spatial axis.
        dims (tuple of int): the spatial size of the image.
        xp: the array namespace (found from ``col`` when omitted).

    Returns:
        array of shape ``(N, C, d_1, ..., d_n)``; pixels seen by several
        taps receive the sum of their columns.
    """
    xp = _xp_of(col, xp)
    n = (col.ndim - 2) // 2
    stride = as_tuple(stride, n, 'stride')
    pad = as_tuple(pad, n, 'pad')
    dilate = as_tuple(dilate, n, 'dilate')
    dims = tuple(dims)
    ksize = col.shape[2:2 + n]
    out_dims = col.shape[2 + n:]
    padded = tuple(
        max(d + 2 * p, (o - 1) * s + (k - 1) * dl + 1)
        for d, p, o, s, k, dl in zip(dims, pad, out_dims, stride, ksize,
                                     dilate))
    img = xp.zeros(col.shape[:2] + padded, dtype=col.dtype)
    lead = (slice(None), slice(None))
    for taps in itertools.product(*[range(k) for k in ksize]):
        window = tuple(slice(j * dl, j * dl + s * (o - 1) + 1, s)
                       for j, dl, s, o in zip(taps, dilate, stride,
                                              out_dims))
        img[lead + window] += col[lead + taps]
    crop = tuple(slice(p, p + d) for p, d in zip(pad, dims))
    return img[lead + crop]


def im2col_nd_cpu(img, ksize, stride, pad, cover_all=False, dilate=1):
    """:func:`im2col_nd` (the name Chainer gives its NumPy version)."""
    return im2col_nd(img, ksize, stride, pad, cover_all, dilate)


def col2im_nd_cpu(col, stride, pad, dims, dilate=1):
    """:func:`col2im_nd` (the name Chainer gives its NumPy version)."""
    return col2im_nd(col, stride, pad, dims, dilate)


im2col_nd_gpu = im2col_nd_cpu
col2im_nd_gpu = col2im_nd_cpu
