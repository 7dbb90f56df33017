"""crelu: concatenated rectifier of x and -x."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.activation import _params
from chainer_core.utils import type_check


def _halves(y, axis, n):
    index = (slice(None),) * axis
    return y[index + (slice(0, n),)], y[index + (slice(n, 2 * n),)]


@kernels.declare('crelu')
def _crelu(xp, x, axis):
    """y = concatenate((max(x, 0), max(-x, 0)), axis)."""
    zero = x.dtype.type(0)
    return xp.concatenate((xp.maximum(x, zero), xp.maximum(-x, zero)), axis)


@kernels.declare('crelu_grad')
def _crelu_grad(xp, x, gy, axis):
    """gx = gy1 where x > 0, -gy2 where x < 0, 0 elsewhere; gy1 and gy2 are
    the halves of gy along axis (x is the input)."""
    g_pos, g_neg = _halves(gy, axis, x.shape[axis])
    return g_pos * (x > 0) - g_neg * (x < 0)


@kernels.declare('crelu_grad_grad')
def _crelu_grad_grad(xp, x, g, axis):
    """The transpose of crelu_grad:
    concatenate((g where x > 0, -g where x < 0), axis)."""
    return xp.concatenate((g * (x > 0), -g * (x < 0)), axis)


class CReLU(function_node.FunctionNode):
    """Concatenated rectifier."""

    def __init__(self, axis=1):
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        x_type = in_types[0]
        type_check.expect(x_type.dtype.kind == 'f')
        axis = type_check.make_variable(self.axis, 'axis')
        if self.axis >= 0:
            type_check.expect(x_type.ndim > axis)
        else:
            type_check.expect(x_type.ndim >= -axis)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        self.axis %= x.ndim
        return kernels.lookup('crelu', x)(x, self.axis),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return CReLUGrad(x.array, self.axis).apply(grad_outputs)


class CReLUGrad(function_node.FunctionNode):
    """Gradient of crelu at a fixed input; linear in ``gy``."""

    def __init__(self, x, axis):
        self.x = x
        self.axis = axis

    def forward(self, inputs):
        gy, = inputs
        return kernels.lookup('crelu_grad', gy)(self.x, gy, self.axis),

    def backward(self, indexes, grad_outputs):
        return CReLUGradGrad(self.x, self.axis).apply(grad_outputs)


class CReLUGradGrad(function_node.FunctionNode):
    """The transpose of :class:`CReLUGrad` (so each is the other's
    gradient)."""

    def __init__(self, x, axis):
        self.x = x
        self.axis = axis

    def forward(self, inputs):
        g, = inputs
        return kernels.lookup('crelu_grad_grad', g)(self.x, g, self.axis),

    def backward(self, indexes, grad_outputs):
        return CReLUGrad(self.x, self.axis).apply(grad_outputs)


def crelu(x, axis=1):
    """Concatenated rectified linear unit:
    :math:`y = (\\max(0, x), \\max(0, -x))`, the two joined along ``axis``.

    Args:
        x (Variable or array): input, float16/32/64, ``ndim > axis``.
        axis (int): the axis to concatenate along (negative counts from the
            end).

    Returns:
        Variable: the shape of ``x`` with ``axis`` twice as long, of the
        dtype of ``x``.
    """
    axis = _params.integer(axis, 'crelu', 'axis')
    return CReLU(axis).apply((x,))[0]
