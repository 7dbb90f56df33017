"""logsumexp: the logarithm of a sum of exponentials, without overflow."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math._util import (
    broadcast_reduced, check_axes, check_unary_float, normalize_axes,
    parse_axis)


@kernels.declare('logsumexp')
def _logsumexp(xp, x, axis):
    """log(sum(exp(x))) over axis (None or a tuple of ints), with the
    maximum taken out first so that exp cannot overflow."""
    m = xp.amax(x, axis=axis, keepdims=True)
    # An all -inf slice would give inf - inf; shift it by 0 instead.
    m = xp.where(xp.isfinite(m), m, x.dtype.type(0))
    s = xp.exp(x - m).sum(axis=axis, keepdims=True)
    y = xp.log(s) + m
    if axis is None:
        return y.reshape(())
    return xp.squeeze(y, axis=axis)


class LogSumExp(function_node.FunctionNode):
    """Log-sum-exp over axes."""

    def __init__(self, axis=None):
        self.axis = parse_axis(axis, 'logsumexp')

    def check_type_forward(self, in_types):
        check_unary_float(in_types)
        check_axes(in_types[0], self.axis)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        return kernels.lookup('logsumexp', x)(x, self.axis),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.exponential import exp
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        axes = normalize_axes(self.axis, x.ndim)
        # dy/dx = exp(x - y): the softmax over the reduced axes.
        y = broadcast_reduced(y, x.shape, axes, False)
        gy = broadcast_reduced(grad_outputs[0], x.shape, axes, False)
        return gy * exp(x - y),


def logsumexp(x, axis=None):
    """Log-sum-exp over the given axes:
    :math:`y = \\log \\sum_i \\exp(x_i)`, computed as
    :math:`m + \\log \\sum_i \\exp(x_i - m)` with :math:`m = \\max_i x_i`
    so that large inputs do not overflow.

    Args:
        x (Variable or array): input, float16/32/64.
        axis (None, int or tuple of int): axes to reduce (None: all).

    Returns:
        Variable: ``x.shape`` without the reduced axes, of the dtype of
        ``x``.
    """
    return LogSumExp(axis).apply((x,))[0]
