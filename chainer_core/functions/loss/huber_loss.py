"""huber_loss: squared near zero, linear beyond delta."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.loss import _util
from chainer_core.utils import type_check


@kernels.declare('huber_loss')
def _huber_loss(xp, x, t, delta, reduce):
    """With a = |x - t|: a**2 / 2 where a <= delta, delta (a - delta / 2)
    elsewhere; summed over axis 1 when reduce is 'sum_along_second_axis'."""
    a = abs(x - t).astype(_util.float_type(x.dtype), copy=False)
    d = a.dtype.type(delta)
    # a**2 - max(a - d, 0)**2 is a**2 inside and d (2a - d) outside.
    over = xp.maximum(a - d, 0)
    y = (a * a - over * over) * a.dtype.type(0.5)
    if reduce == 'sum_along_second_axis':
        y = y.sum(axis=1)
    return y.astype(x.dtype)


class HuberLoss(function_node.FunctionNode):
    """Huber loss of x against a target t of one shape."""

    def __init__(self, delta, reduce='sum_along_second_axis'):
        self.delta = delta
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.dtype == t_type.dtype,
            x_type.shape == t_type.shape,
        )
        if self.reduce == 'sum_along_second_axis':
            type_check.expect(x_type.ndim >= 2)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, t = inputs
        return kernels.lookup('huber_loss', x)(x, t, self.delta, self.reduce),

    def backward(self, indexes, grad_outputs):
        x, t = self.get_retained_inputs()
        gy, = grad_outputs
        diff = x - t
        xp = x.xp
        d = diff.array
        inside = abs(d) <= self.delta
        # clip(diff, -delta, delta): diff inside, a constant outside.
        clipped = diff * inside.astype(d.dtype) + \
            xp.where(inside, 0, xp.sign(d) * self.delta).astype(d.dtype)
        if self.reduce == 'sum_along_second_axis':
            gy = _util.expand_to(gy, d.shape, 1)
        g = gy * clipped
        return tuple(g if i == 0 else -g for i in indexes)


def huber_loss(x, t, delta, reduce='sum_along_second_axis'):
    """Huber loss, less sensitive to outliers than the squared error.

    With :math:`a = x - t`,

    .. math::
        L_\\delta(a) = \\begin{cases} a^2 / 2 & |a| \\le \\delta \\\\
        \\delta (|a| - \\delta / 2) & \\text{otherwise.} \\end{cases}

    Args:
        x (Variable or array): input, float16/32/64; ``(N, K, ...)`` when
            summing along the second axis.
        t (Variable or array): target of the shape and dtype of ``x``.
        delta (float): the threshold between the quadratic and the linear
            part.
        reduce (str): ``'sum_along_second_axis'`` sums the losses over axis
            1 (the output has ``x``'s shape without that axis); ``'no'``
            keeps them elementwise.

    Returns:
        Variable: the loss, of ``x``'s dtype.
    """
    _util.check_reduce('huber_loss', reduce, ('sum_along_second_axis', 'no'))
    return HuberLoss(delta, reduce).apply((x, t))[0]
