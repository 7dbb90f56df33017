"""prod: product of the elements over axes."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math._util import (
    broadcast_reduced, check_axes, check_unary_float, normalize_axes,
    parse_axis)


@kernels.declare('prod')
def _prod(xp, x, axis, keepdims):
    """Product of x over axis (None or a tuple of ints)."""
    return xp.asarray(x.prod(axis=axis, keepdims=keepdims), dtype=x.dtype)


class Prod(function_node.FunctionNode):
    """Product over axes."""

    def __init__(self, axis=None, keepdims=False):
        self.axis = parse_axis(axis, 'prod')
        self.keepdims = keepdims

    def check_type_forward(self, in_types):
        check_unary_float(in_types)
        check_axes(in_types[0], self.axis)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return kernels.lookup('prod', x)(x, self.axis, self.keepdims),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.reshape import reshape
        from chainer_core.functions.array.transpose import transpose
        from chainer_core.functions.math.cumprod import Cumprod, Flip, Shift
        x, = self.get_retained_inputs()
        shape = x.shape
        axes = normalize_axes(self.axis, x.ndim)
        kept = tuple(i for i in range(x.ndim) if i not in axes)
        perm = axes + kept
        # Bring the reduced axes to the front as one axis of length n; the
        # gradient of each element is the product of all the others, taken
        # as (product before it) * (product after it) so that zeros are
        # handled without dividing.
        xt = transpose(x, perm) if perm != tuple(range(x.ndim)) else x
        n = 1
        for a in axes:
            n *= shape[a]
        xr = reshape(xt, (n,) + tuple(shape[i] for i in kept))
        before = Shift(0, False, 1).apply(
            (Cumprod(0).apply((xr,))[0],))[0]
        from_end = Flip(0).apply((Cumprod(0).apply(
            (Flip(0).apply((xr,))[0],))[0],))[0]
        after = Shift(0, True, 1).apply((from_end,))[0]
        others = reshape(before * after, xt.shape)
        if perm != tuple(range(x.ndim)):
            inverse = [0] * x.ndim
            for i, p in enumerate(perm):
                inverse[p] = i
            others = transpose(others, tuple(inverse))
        gy = broadcast_reduced(grad_outputs[0], shape, axes, self.keepdims)
        return gy * others,


def prod(x, axis=None, keepdims=False):
    """Product of the elements over the given axes.

    Args:
        x (Variable or array): input, float16/32/64.
        axis (None, int or tuple of int): axes to multiply over (None: all).
        keepdims (bool): keep the reduced axes with size 1.

    Returns:
        Variable: the product; its shape is that of ``x`` without (or with
        size 1 at) the reduced axes.
    """
    return Prod(axis, keepdims).apply((x,))[0]
