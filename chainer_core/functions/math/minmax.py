"""max, min, argmax and argmin over axes."""
import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math._util import (
    broadcast_reduced, check_axes, check_unary_float, normalize_axes,
    parse_axis)


@kernels.declare('max')
def _max(xp, x, axis, keepdims):
    """Largest element of x over axis (None or a tuple of ints)."""
    return xp.asarray(xp.amax(x, axis=axis, keepdims=keepdims))


@kernels.declare('min')
def _min(xp, x, axis, keepdims):
    """Smallest element of x over axis (None or a tuple of ints)."""
    return xp.asarray(xp.amin(x, axis=axis, keepdims=keepdims))


@kernels.declare('max_mask')
def _max_mask(xp, x, y, axes):
    """1 where x equals the reduced y (kept axes of size 1 at axes), else
    0, in the dtype of x."""
    shape = tuple(1 if i in axes else s for i, s in enumerate(x.shape))
    return xp.asarray(x == y.reshape(shape), dtype=x.dtype)


@kernels.declare('argmax')
def _argmax(xp, x, axis):
    """Index of the first largest element over axis (None: flattened), as
    int32."""
    return xp.asarray(xp.argmax(x, axis=axis), dtype=numpy.int32)


@kernels.declare('argmin')
def _argmin(xp, x, axis):
    """Index of the first smallest element over axis (None: flattened), as
    int32."""
    return xp.asarray(xp.argmin(x, axis=axis), dtype=numpy.int32)


class _Selector(function_node.FunctionNode):
    _kernel = None

    def __init__(self, axis=None, keepdims=False):
        self.axis = parse_axis(axis, self._kernel)
        self.keepdims = keepdims

    def check_type_forward(self, in_types):
        check_unary_float(in_types)
        check_axes(in_types[0], self.axis)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        return kernels.lookup(self._kernel, x)(x, self.axis, self.keepdims),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        axes = normalize_axes(self.axis, x.ndim)
        # Every element equal to the extremum gets the whole gradient, as
        # in Chainer.
        mask = kernels.lookup('max_mask', x.array)(x.array, y.array, axes)
        gy = broadcast_reduced(grad_outputs[0], x.shape, axes, self.keepdims)
        return gy * mask,


class Max(_Selector):
    """Maximum over axes."""

    _kernel = 'max'


class Min(_Selector):
    """Minimum over axes."""

    _kernel = 'min'


class _IndexSelector(function_node.FunctionNode):
    _kernel = None

    def __init__(self, axis=None):
        self.axis = parse_axis(axis, self._kernel, allow_tuple=False)

    def check_type_forward(self, in_types):
        check_unary_float(in_types)
        check_axes(in_types[0], self.axis)

    def forward(self, inputs):
        x, = inputs
        axis = None if self.axis is None else self.axis[0]
        return kernels.lookup(self._kernel, x)(x, axis),

    def backward(self, indexes, grad_outputs):
        return None,


class ArgMax(_IndexSelector):
    """Index of the maximum along an axis."""

    _kernel = 'argmax'


class ArgMin(_IndexSelector):
    """Index of the minimum along an axis."""

    _kernel = 'argmin'


def max(x, axis=None, keepdims=False):
    """Maximum of the elements over the given axes.

    The gradient goes to every element equal to the maximum.

    Args:
        x (Variable or array): input, float16/32/64.
        axis (None, int or tuple of int): axes to reduce (None: all).
        keepdims (bool): keep the reduced axes with size 1.

    Returns:
        Variable: the maxima; its shape is that of ``x`` without (or with
        size 1 at) the reduced axes.
    """
    return Max(axis, keepdims).apply((x,))[0]


def min(x, axis=None, keepdims=False):
    """Minimum of the elements over the given axes.

    The gradient goes to every element equal to the minimum.

    Args:
        x (Variable or array): input, float16/32/64.
        axis (None, int or tuple of int): axes to reduce (None: all).
        keepdims (bool): keep the reduced axes with size 1.

    Returns:
        Variable: the minima; its shape is that of ``x`` without (or with
        size 1 at) the reduced axes.
    """
    return Min(axis, keepdims).apply((x,))[0]


def argmax(x, axis=None):
    """Index of the maximum along an axis (the first one on ties).

    Not differentiable: its output is an int32 array.

    Args:
        x (Variable or array): input, float16/32/64.
        axis (None or int): the axis to search; None searches the flattened
            input and returns a 0-dim index into it.

    Returns:
        Variable of int32: ``x.shape`` without ``axis`` (``()`` for None).
    """
    return ArgMax(axis).apply((x,))[0]


def argmin(x, axis=None):
    """Index of the minimum along an axis (the first one on ties).

    Not differentiable: its output is an int32 array.

    Args:
        x (Variable or array): input, float16/32/64.
        axis (None or int): the axis to search; None searches the flattened
            input and returns a 0-dim index into it.

    Returns:
        Variable of int32: ``x.shape`` without ``axis`` (``()`` for None).
    """
    return ArgMin(axis).apply((x,))[0]
