"""elu: exponential linear unit (and the nodes selu shares)."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.activation import _params
from chainer_core.utils import type_check


def elu_unscaled(xp, x, alpha):
    """max(x, 0) + alpha * (exp(min(x, 0)) - 1): one of the terms is zero,
    and exp never sees the positive part, which could overflow."""
    zero = x.dtype.type(0)
    return (xp.maximum(x, zero)
            + x.dtype.type(alpha) * xp.expm1(xp.minimum(x, zero)))


def _negative_exp(xp, x, factor):
    """factor * exp(x) where x < 0, 0 elsewhere."""
    zero = x.dtype.type(0)
    return (xp.exp(xp.minimum(x, zero)) * x.dtype.type(factor)) * (x < zero)


@kernels.declare('elu')
def _elu(xp, x, alpha):
    """y = x where x >= 0, alpha * (exp(x) - 1) elsewhere."""
    return elu_unscaled(xp, x, alpha)


@kernels.declare('elu_grad')
def _elu_grad(xp, x, gy, alpha, scale):
    """gx = scale * gy where x >= 0, scale * alpha * exp(x) * gy elsewhere."""
    coef = (x >= 0) * gy.dtype.type(scale)
    coef += _negative_exp(xp, x, alpha * scale)
    return gy * coef


@kernels.declare('elu_grad_grad')
def _elu_grad_grad(xp, x, g, alpha, scale):
    """g * scale * alpha * exp(x) where x < 0, 0 elsewhere: the derivative
    of elu_grad's coefficient."""
    return g * _negative_exp(xp, x, alpha * scale)


class ELU(function_node.FunctionNode):
    """Exponential linear unit."""

    def __init__(self, alpha=1.0):
        self.alpha = alpha
        self.scale = 1.0

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return kernels.lookup('elu', x)(x, self.alpha),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return ELUGrad(self.alpha, self.scale).apply((x, grad_outputs[0]))


class ELUGrad(function_node.FunctionNode):
    """``gx = gy * scale * (1 or alpha e^x)`` as a function of x and gy."""

    def __init__(self, alpha, scale):
        self.alpha = alpha
        self.scale = scale

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        return kernels.lookup('elu_grad', gy)(x, gy, self.alpha, self.scale),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(ELUGradGrad(self.alpha, self.scale).apply(
                (x, ggx * gy))[0])
        if 1 in indexes:
            ret.append(ELUGrad(self.alpha, self.scale).apply((x, ggx))[0])
        return tuple(ret)


class ELUGradGrad(function_node.FunctionNode):
    """``g * scale * alpha e^x [x < 0]``; its derivative in x is itself,
    so the node serves every higher order."""

    def __init__(self, alpha, scale):
        self.alpha = alpha
        self.scale = scale

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, g = inputs
        return kernels.lookup('elu_grad_grad', g)(
            x, g, self.alpha, self.scale),

    def backward(self, indexes, grad_outputs):
        x, g = self.get_retained_inputs()
        gg, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(ELUGradGrad(self.alpha, self.scale).apply(
                (x, gg * g))[0])
        if 1 in indexes:
            ret.append(ELUGradGrad(self.alpha, self.scale).apply((x, gg))[0])
        return tuple(ret)


def elu(x, alpha=1.0):
    """Exponential linear unit.

    .. math:: y = \\begin{cases} x & (x \\ge 0) \\\\
                                 \\alpha (e^x - 1) & (x < 0) \\end{cases}

    Args:
        x (Variable or array): input of any shape, float16/32/64.
        alpha (float): :math:`\\alpha`, the value the output tends to
            (negated) as :math:`x \\to -\\infty`.

    Returns:
        Variable: output of the shape and dtype of ``x``.
    """
    alpha = _params.real(alpha, 'elu', 'alpha')
    return ELU(alpha).apply((x,))[0]
