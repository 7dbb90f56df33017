"""erfc: the complementary error function."""
import math

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math import _special
from chainer_core.functions.math._util import check_unary_float, compute_dtype


@kernels.declare('erfc')
def _erfc(xp, x):
    """y = 1 - erf(x), accurate where it is small (float16 is evaluated in
    float32)."""
    w = x.astype(compute_dtype(x.dtype), copy=False)
    return _special.erfc(xp, w).astype(x.dtype, copy=False)


class Erfc(function_node.FunctionNode):
    """Elementwise complementary error function."""

    check_type_forward = staticmethod(check_unary_float)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return kernels.lookup('erfc', x)(x),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.exponential import exp
        x, = self.get_retained_inputs()
        return grad_outputs[0] * exp(-x * x) * (-2 / math.sqrt(math.pi)),


def erfc(x):
    """Elementwise complementary error function:
    :math:`y = 1 - \\mathrm{erf}(x)`, computed without the cancellation of
    the subtraction (accurate for large ``x``, where it is tiny).

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return Erfc().apply((x,))[0]
