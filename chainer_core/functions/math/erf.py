"""erf: the error function."""
import math

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math import _special
from chainer_core.functions.math._util import check_unary_float, compute_dtype


@kernels.declare('erf')
def _erf(xp, x):
    """y = 2/sqrt(pi) * integral of exp(-t^2) from 0 to x (float16 is
    evaluated in float32)."""
    w = x.astype(compute_dtype(x.dtype), copy=False)
    return _special.erf(xp, w).astype(x.dtype, copy=False)


class Erf(function_node.FunctionNode):
    """Elementwise error function."""

    check_type_forward = staticmethod(check_unary_float)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return kernels.lookup('erf', x)(x),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.exponential import exp
        x, = self.get_retained_inputs()
        return grad_outputs[0] * exp(-x * x) * (2 / math.sqrt(math.pi)),


def erf(x):
    """Elementwise error function:
    :math:`y = \\frac{2}{\\sqrt{\\pi}} \\int_0^x e^{-t^2} dt`.

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return Erf().apply((x,))[0]
