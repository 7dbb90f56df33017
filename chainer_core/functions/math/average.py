"""mean and average: (weighted) means over axes."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math._util import (
    broadcast_reduced, check_axes, check_unary_float, normalize_axes,
    parse_axis)


@kernels.declare('mean')
def _mean(xp, x, axis, keepdims):
    """Arithmetic mean of x over axis (None or a tuple of ints)."""
    return xp.asarray(x.mean(axis=axis, keepdims=keepdims), dtype=x.dtype)


class Mean(function_node.FunctionNode):
    """Mean over axes."""

    def __init__(self, axis=None, keepdims=False):
        self.axis = parse_axis(axis, 'mean')
        self.keepdims = keepdims

    def check_type_forward(self, in_types):
        check_unary_float(in_types)
        check_axes(in_types[0], self.axis)

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('mean', x)(x, self.axis, self.keepdims),

    def backward(self, indexes, grad_outputs):
        shape = self.inputs[0].shape
        axes = normalize_axes(self.axis, len(shape))
        n = 1
        for a in axes:
            n *= shape[a]
        gy = grad_outputs[0] * (1.0 / n) if n else grad_outputs[0]
        return broadcast_reduced(gy, shape, axes, self.keepdims),


def mean(x, axis=None, weights=None, keepdims=False):
    """Arithmetic mean of the elements over the given axes, or, with
    ``weights``, their weighted average (:func:`average`).

    Args:
        x (Variable or array): input, float16/32/64.
        axis (None, int or tuple of int): axes to average over (None: all).
        weights (None, Variable or array): weights as in :func:`average`.
        keepdims (bool): keep the reduced axes with size 1.

    Returns:
        Variable: the mean; its shape is that of ``x`` without (or with size
        1 at) the reduced axes.
    """
    if weights is not None:
        return average(x, axis, weights, keepdims)
    return Mean(axis, keepdims).apply((x,))[0]


def average(x, axis=None, weights=None, keepdims=False, returned=False):
    """Weighted average of the elements over the given axes:
    :math:`y = \\sum_i w_i x_i / \\sum_i w_i`.

    Args:
        x (Variable or array): input, float16/32/64.
        axis (None, int or tuple of int): axes to average over (None: all).
            With ``weights``, at most one axis.
        weights (None, Variable or array): weights of the dtype of ``x``;
            None weighs every element by one. With ``axis=None`` they have
            the shape of ``x``; with one axis they are one-dimensional, of
            length ``x.shape[axis]``. Gradients flow to them too.
        keepdims (bool): keep the reduced axes with size 1.
        returned (bool): also return the sum of the weights, as NumPy's
            ``average`` does (an extension: Chainer's ``average`` has no
            such argument).

    Returns:
        Variable: the average; its shape is that of ``x`` without (or with
        size 1 at) the reduced axes. With ``returned``, the pair
        ``(average, sum of weights)``, the second broadcast to the shape of
        the first.
    """
    from chainer_core.functions.array.broadcast import broadcast_to
    from chainer_core.functions.array.reshape import reshape
    from chainer_core.functions.math.sum import sum as sum_
    if weights is None:
        y = mean(x, axis, keepdims=keepdims)
        if not returned:
            return y
        axes = normalize_axes(parse_axis(axis, 'average'), x.ndim)
        n = 1
        for a in axes:
            n *= x.shape[a]
        return y, broadcast_to(y.xp.asarray(n, dtype=y.dtype), y.shape)
    axes = parse_axis(axis, 'average')
    if axes is not None and len(axes) > 1:
        raise ValueError('average: axis must be None or a single axis when '
                         'weights are given, got axis={!r}'.format(axis))
    if not hasattr(weights, 'dtype') or not hasattr(x, 'dtype'):
        raise TypeError('average: x and weights must be Variables or arrays')
    if weights.dtype != x.dtype:
        raise TypeError('average: weights must have the dtype of x ({}), got '
                        '{}'.format(x.dtype, weights.dtype))
    if axes is None:
        if weights.shape != x.shape:
            raise ValueError(
                'average: with axis=None, weights must have the shape of x '
                '{}, got {}'.format(x.shape, weights.shape))
    else:
        a = axes[0]
        if not -x.ndim <= a < x.ndim:
            raise ValueError('average: axis {} is out of bounds for x of '
                             'ndim {}'.format(a, x.ndim))
        a %= x.ndim
        if weights.shape != (x.shape[a],):
            raise ValueError(
                'average: with axis={}, weights must be one-dimensional of '
                'length x.shape[{}] = {}, got shape {}'.format(
                    axis, axis, x.shape[a], weights.shape))
        w_shape = tuple(s if i == a else 1 for i, s in enumerate(x.shape))
        weights_b = broadcast_to(reshape(weights, w_shape), x.shape)
    if axes is None:
        weights_b = weights
    total = sum_(weights)
    y_sum = sum_(x * weights_b, axis=axes, keepdims=keepdims)
    total = broadcast_to(total, y_sum.shape)
    y = y_sum / total
    if returned:
        return y, total
    return y
