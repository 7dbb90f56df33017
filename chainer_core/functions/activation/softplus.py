"""softplus: a smooth rectifier."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.activation import _params
from chainer_core.utils import type_check


@kernels.declare('softplus')
def _softplus(xp, x, beta):
    """y = log(1 + exp(beta * x)) / beta, without overflow; float16 is
    computed in float32."""
    dtype = x.dtype
    if dtype.itemsize < 4:
        x = x.astype('float32')
    bx = x * x.dtype.type(beta)
    # log(1 + e^t) = max(t, 0) + log1p(e^-|t|) keeps e^t from overflowing.
    y = xp.maximum(bx, x.dtype.type(0)) + xp.log1p(xp.exp(-xp.abs(bx)))
    return (y * x.dtype.type(1.0 / beta)).astype(dtype, copy=False)


class Softplus(function_node.FunctionNode):
    """Softplus with sharpness ``beta``."""

    def __init__(self, beta=1.0):
        self.beta = beta

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return kernels.lookup('softplus', x)(x, self.beta),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.activation.sigmoid import sigmoid
        x, = self.get_retained_inputs()
        return grad_outputs[0] * sigmoid(x * self.beta),


def softplus(x, beta=1.0):
    """Softplus: :math:`y = \\frac{1}{\\beta} \\log(1 + e^{\\beta x})`.

    A smooth approximation of the rectifier, closer to it for larger
    :math:`\\beta`; the derivative is :math:`\\sigma(\\beta x)`.

    Args:
        x (Variable or array): input of any shape, float16/32/64.
        beta (float): :math:`\\beta`, non-zero.

    Returns:
        Variable: output of the shape and dtype of ``x``.
    """
    beta = _params.real(beta, 'softplus', 'beta')
    if beta == 0:
        raise ValueError('softplus: beta must be non-zero, got 0')
    return Softplus(beta).apply((x,))[0]
