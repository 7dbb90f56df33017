"""erfinv: the inverse of the error function."""
import math

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math import _special
from chainer_core.functions.math._util import check_unary_float, compute_dtype


@kernels.declare('erfinv')
def _erfinv(xp, x):
    """y with erf(y) = x for -1 < x < 1; +-inf at +-1 and NaN outside
    (float16 is evaluated in float32)."""
    w = x.astype(compute_dtype(x.dtype), copy=False)
    return _special.erfinv(xp, w).astype(x.dtype, copy=False)


class ErfInv(function_node.FunctionNode):
    """Elementwise inverse error function."""

    check_type_forward = staticmethod(check_unary_float)

    def forward(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        return kernels.lookup('erfinv', x)(x),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.exponential import exp
        y, = self.get_retained_outputs()
        # The inverse of erf' = 2/sqrt(pi) exp(-y^2) at y = erfinv(x).
        return grad_outputs[0] * exp(y * y) * (math.sqrt(math.pi) / 2),


def erfinv(x):
    """Elementwise inverse error function: :math:`y` with
    :math:`\\mathrm{erf}(y) = x`.

    Defined on :math:`(-1, 1)`; it is :math:`\\pm\\infty` at :math:`\\pm 1`
    and NaN outside. No SciPy is needed.

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return ErfInv().apply((x,))[0]
