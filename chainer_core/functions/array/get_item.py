"""get_item: NumPy-style indexing (basic and advanced)."""
import numbers

import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.utils import type_check
from chainer_core.variable import Variable


@kernels.declare('get_item')
def _get_item(xp, x, slices):
    """x[slices] (ints, slices, None, Ellipsis, integer or boolean arrays)."""
    return x[slices]


@kernels.declare('get_item_grad')
def _get_item_grad(xp, gy, slices, shape):
    """Zeros of shape with gy added at x[slices] (repeated indices add up)."""
    gx = xp.zeros(shape, dtype=gy.dtype)
    if xp is numpy:
        numpy.add.at(gx, slices, gy)
    else:
        xp.add.at(gx, slices, gy)
    return gx


class IndexOutOfRangeError(IndexError, ValueError):
    """An index is outside the axis it indexes."""


def _normalize_slices(slices, op='get_item'):
    if not isinstance(slices, tuple):
        slices = (slices,)
    out = []
    for s in slices:
        if isinstance(s, Variable):
            s = s.array
        if isinstance(s, list):
            s = numpy.asarray(s)
        if not (s is None or s is Ellipsis or isinstance(s, slice)
                or isinstance(s, (numbers.Integral, numpy.integer))
                or (hasattr(s, 'dtype') and s.dtype.kind in 'iub')):
            raise TypeError(
                '{}: unsupported index {!r} of type {}; expected int, '
                'slice, None, Ellipsis, or an integer/boolean array'.format(
                    op, s, type(s).__name__))
        out.append(s)
    return tuple(out)


def _check_bounds(shape, slices, op='get_item'):
    """Raise a clear error for integer indices outside their axis."""
    n_ellipsis = sum(1 for s in slices if s is Ellipsis)
    if n_ellipsis > 1:
        raise ValueError('{}: at most one Ellipsis is allowed'.format(op))
    consumed = sum(1 if not hasattr(s, 'dtype') or s.dtype.kind != 'b'
                   else s.ndim for s in slices
                   if s is not None and s is not Ellipsis)
    if consumed > len(shape):
        raise IndexOutOfRangeError(
            '{}: too many indices ({}) for an input of ndim {}'.format(
                op, consumed, len(shape)))
    axis = 0
    for s in slices:
        if s is None:
            continue
        if s is Ellipsis:
            axis += len(shape) - consumed
            continue
        if hasattr(s, 'dtype') and s.dtype.kind == 'b':
            if s.shape != tuple(shape[axis:axis + s.ndim]):
                raise IndexOutOfRangeError(
                    '{}: boolean index of shape {} does not match axes '
                    '{} of x with shape {}'.format(op, s.shape, axis, shape))
            axis += s.ndim
            continue
        size = shape[axis]
        if isinstance(s, (numbers.Integral, numpy.integer)):
            if not -size <= s < size:
                raise IndexOutOfRangeError(
                    '{}: index {} is out of range for axis {} of x with '
                    'size {}'.format(op, int(s), axis, size))
        elif hasattr(s, 'dtype') and s.size:
            lo, hi = int(s.min()), int(s.max())
            if lo < -size or hi >= size:
                raise IndexOutOfRangeError(
                    '{}: index array holds {} which is out of range for '
                    'axis {} of x with size {}'.format(
                        op, lo if lo < -size else hi, axis, size))
        axis += 1


class GetItem(function_node.FunctionNode):
    """Indexing ``x[slices]``."""

    def __init__(self, slices):
        self.slices = slices

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)

    def forward(self, inputs):
        x, = inputs
        _check_bounds(x.shape, self.slices)
        return kernels.lookup('get_item', x)(x, self.slices),

    def backward(self, indexes, grad_outputs):
        return GetItemGrad(self.slices, self.inputs[0].shape).apply(
            grad_outputs)


class GetItemGrad(function_node.FunctionNode):
    """Scatter-add of a gradient into the indexed positions."""

    def __init__(self, slices, in_shape):
        self.slices = slices
        self._in_shape = in_shape

    def forward(self, inputs):
        gy, = inputs
        return kernels.lookup('get_item_grad', gy)(
            gy, self.slices, self._in_shape),

    def backward(self, indexes, grad_outputs):
        return GetItem(self.slices).apply(grad_outputs)


def get_item(x, slices):
    """Index ``x`` as NumPy does: ``y = x[slices]``.

    Basic indexing (ints, slices, None, Ellipsis) and advanced indexing
    (integer or boolean arrays) are supported. In the gradient, positions
    picked several times by an integer array receive the sum of their
    gradients.

    Args:
        x (Variable or array): input.
        slices: an index or a tuple of indices.

    Returns:
        Variable: ``x[slices]``.
    """
    slices = _normalize_slices(slices)
    if len(slices) == 1 and type(slices[0]) is slice and \
            slices[0] == slice(None):
        from chainer_core.variable import as_variable
        return as_variable(x)
    return GetItem(slices).apply((x,))[0]
