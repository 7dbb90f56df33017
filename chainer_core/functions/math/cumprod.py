"""cumprod: cumulative products along an axis.

Its gradient is a linear recurrence along the axis (a scan); the scan and
the one-step shift it needs are differentiable nodes of their own, so that
cumprod (and prod, whose gradient uses it) can be differentiated any number
of times, also where the input has zeros.
"""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math._util import check_unary_float
from chainer_core.functions.math.cumsum import (
    _check_axis_int, check_axis_in_range)


@kernels.declare('cumprod')
def _cumprod(xp, x, axis):
    """Running products of x along axis."""
    return xp.cumprod(x, axis=axis)


@kernels.declare('cumprod_shift')
def _cumprod_shift(xp, x, axis, reverse, fill):
    """x moved one step along axis (towards the end, or towards the start
    when reverse), the vacated element set to fill."""
    n = x.shape[axis]
    if n == 0:
        return x.copy()
    edge_shape = x.shape[:axis] + (1,) + x.shape[axis + 1:]
    edge = xp.full(edge_shape, fill, dtype=x.dtype)
    index = [slice(None)] * x.ndim
    if reverse:
        index[axis] = slice(1, None)
        return xp.concatenate([x[tuple(index)], edge], axis=axis)
    index[axis] = slice(None, n - 1)
    return xp.concatenate([edge, x[tuple(index)]], axis=axis)


@kernels.declare('cumprod_scan')
def _cumprod_scan(xp, a, b, axis, reverse):
    """The linear recurrence s[i] = a[i] * s[i-1] + b[i] along axis (s[0] =
    b[0]); when reverse, s[i] = a[i+1] * s[i+1] + b[i] from the end."""
    a = xp.moveaxis(a, axis, 0)
    b = xp.moveaxis(b, axis, 0)
    s = xp.empty_like(b)
    n = b.shape[0]
    if n:
        if reverse:
            s[n - 1] = b[n - 1]
            for i in range(n - 2, -1, -1):
                s[i] = a[i + 1] * s[i + 1] + b[i]
        else:
            s[0] = b[0]
            for i in range(1, n):
                s[i] = a[i] * s[i - 1] + b[i]
    return xp.moveaxis(s, 0, axis)


@kernels.declare('cumprod_flip')
def _cumprod_flip(xp, x, axis):
    """x reversed along axis."""
    return xp.flip(x, axis)


class Cumprod(function_node.FunctionNode):
    """Cumulative product along one axis."""

    def __init__(self, axis):
        _check_axis_int(axis, 'cumprod')
        self.axis = int(axis)

    def check_type_forward(self, in_types):
        check_unary_float(in_types)
        check_axis_in_range(in_types[0], self.axis)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        return kernels.lookup('cumprod', x)(x, self.axis),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        axis = self.axis % x.ndim
        # gx[j] = y[j-1] * sum_{i >= j} gy[i] * x[j+1] ... x[i]: the
        # product before j times a scan from the end; no division, so zeros
        # in x are fine.
        before = Shift(axis, False, 1).apply((y,))[0]
        after = Scan(axis, True).apply((x, grad_outputs[0]))[0]
        return before * after,


class Shift(function_node.FunctionNode):
    """Move the elements one step along an axis, filling the vacated end
    with a constant."""

    def __init__(self, axis, reverse, fill):
        self.axis = axis
        self.reverse = reverse
        self.fill = fill

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('cumprod_shift', x)(
            x, self.axis, self.reverse, self.fill),

    def backward(self, indexes, grad_outputs):
        return Shift(self.axis, not self.reverse, 0).apply(grad_outputs)


class Scan(function_node.FunctionNode):
    """The recurrence ``s[i] = a[i] s[i-1] + b[i]`` along an axis (or
    ``s[i] = a[i+1] s[i+1] + b[i]`` from the end when ``reverse``)."""

    def __init__(self, axis, reverse):
        self.axis = axis
        self.reverse = reverse

    def forward(self, inputs):
        a, b = inputs
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        return kernels.lookup('cumprod_scan', a)(
            a, b, self.axis, self.reverse),

    def backward(self, indexes, grad_outputs):
        a, = self.get_retained_inputs()
        s, = self.get_retained_outputs()
        # The adjoint of a scan is the scan the other way with the same
        # multipliers; the multiplier a[k] links positions k-1 and k.
        t = Scan(self.axis, not self.reverse).apply((a, grad_outputs[0]))[0]
        ret = []
        if 0 in indexes:
            earlier, later = (t, s) if self.reverse else (s, t)
            ret.append(Shift(self.axis, False, 0).apply((earlier,))[0]
                       * later)
        if 1 in indexes:
            ret.append(t)
        return tuple(ret)


class Flip(function_node.FunctionNode):
    """Reverse along an axis."""

    def __init__(self, axis):
        self.axis = axis

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('cumprod_flip', x)(x, self.axis),

    def backward(self, indexes, grad_outputs):
        return Flip(self.axis).apply(grad_outputs)


def cumprod(x, axis=None):
    """Cumulative product along an axis: :math:`y_i = \\prod_{j \\le i} x_j`.

    Args:
        x (Variable or array): input, float16/32/64.
        axis (int or None): the axis to multiply along; None multiplies over
            the flattened input.

    Returns:
        Variable of the shape of ``x`` (one-dimensional when ``axis`` is
        None), of its dtype.
    """
    if axis is None:
        from chainer_core.functions.array.reshape import reshape
        return Cumprod(0).apply((reshape(x, (-1,)),))[0]
    return Cumprod(axis).apply((x,))[0]
