"""Hyperbolic functions: sinh and cosh."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math._util import check_unary_float


@kernels.declare('sinh')
def _sinh(xp, x):
    """y = (e^x - e^-x) / 2."""
    return xp.sinh(x)


@kernels.declare('cosh')
def _cosh(xp, x):
    """y = (e^x + e^-x) / 2."""
    return xp.cosh(x)


class Sinh(function_node.FunctionNode):
    """Elementwise hyperbolic sine."""

    check_type_forward = staticmethod(check_unary_float)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return kernels.lookup('sinh', x)(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * cosh(x),


class Cosh(function_node.FunctionNode):
    """Elementwise hyperbolic cosine."""

    check_type_forward = staticmethod(check_unary_float)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return kernels.lookup('cosh', x)(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * sinh(x),


def sinh(x):
    """Elementwise hyperbolic sine: :math:`y = (e^x - e^{-x}) / 2`.

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return Sinh().apply((x,))[0]


def cosh(x):
    """Elementwise hyperbolic cosine: :math:`y = (e^x + e^{-x}) / 2`.

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return Cosh().apply((x,))[0]
