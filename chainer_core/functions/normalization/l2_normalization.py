"""normalize: divide by the L2 norm along axes."""
import numbers

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.normalization import _util
from chainer_core.utils import type_check


@kernels.declare('normalize')
def _normalize(xp, x, axis, eps):
    """y = x / (sqrt(sum(x ** 2, axis)) + eps), the sum over the axes in
    axis (a tuple)."""
    xw = _util.wide(x)
    norm = xp.sqrt((xw * xw).sum(axis=axis, keepdims=True))
    norm += eps
    return (xw / norm).astype(x.dtype, copy=False)


class NormalizeL2(function_node.FunctionNode):
    """L2 normalization."""

    def __init__(self, eps=1e-5, axis=1):
        op = 'normalize'
        self.eps = _util.check_number(op, 'eps', eps, low=0)
        if isinstance(axis, numbers.Integral) and not isinstance(axis, bool):
            axis = (int(axis),)
        elif not (isinstance(axis, (tuple, list)) and axis and all(
                isinstance(a, numbers.Integral) and not isinstance(a, bool)
                for a in axis)):
            raise TypeError('{}: axis must be an int or a non-empty tuple of '
                            'ints, got {!r}'.format(op, axis))
        self.axis = tuple(int(a) for a in axis)

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        for a in self.axis:
            a_var = type_check.make_variable(a, 'axis')
            if a >= 0:
                type_check.expect(x_type.ndim > a_var)
            else:
                type_check.expect(x_type.ndim >= -a_var)
        ndim = type_check.eval(x_type.ndim)
        axes = [a % ndim for a in self.axis]
        if len(set(axes)) != len(axes):
            raise type_check.InvalidType(
                'distinct axes modulo x.ndim',
                'axis = {}, x.ndim = {}'.format(self.axis, ndim))

    def forward(self, inputs):
        x, = inputs
        self.axis = tuple(sorted(a % x.ndim for a in self.axis))
        self.retain_inputs((0,))
        return kernels.lookup('normalize', x)(x, self.axis, self.eps),

    def backward(self, indexes, grad_outputs):
        # With n = |x| and N = n + eps: y = x / N and
        # gx = gy / N - x sum(x gy) / (n N^2).
        from chainer_core.functions.math.sum import sum as sum_
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        sq = sum_(x * x, axis=self.axis, keepdims=True)
        # Where x is all zero, x sum(x gy) / n is zero: n = 1 in that term
        # keeps it from being 0 / 0 (gx is then gy / eps, its limit).
        zero = sq.array == 0
        if zero.any():
            zero = zero.astype(sq.dtype)
            n = (sq + zero) ** 0.5
            inv = 1.0 / (n - zero + self.eps)
        else:
            n = sq ** 0.5
            inv = 1.0 / (n + self.eps)
        return gy * inv - x * (sum_(x * gy, axis=self.axis, keepdims=True) *
                               (inv * inv / n)),


def normalize(x, eps=1e-5, axis=1):
    """L2 normalization along ``axis``.

    .. math::
        y = \\frac{x}{\\|x\\|_2 + \\epsilon}

    the norm taken over ``axis`` (separately for each index of the other
    axes). Differentiable twice (and more).

    Args:
        x (Variable or array): input, float16/32/64.
        eps (float): added to the norm, to avoid dividing by zero.
        axis (int or tuple of int): the axes of the norm.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return NormalizeL2(eps, axis).apply((x,))[0]
