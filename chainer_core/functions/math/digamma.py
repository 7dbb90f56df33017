"""digamma: the derivative of the log-gamma function."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math import _special
from chainer_core.functions.math._util import check_unary_float, compute_dtype


@kernels.declare('digamma')
def _digamma(xp, x):
    """y = d/dx log Gamma(x); NaN at 0, -1, -2, ... (float16 is evaluated
    in float32)."""
    w = x.astype(compute_dtype(x.dtype), copy=False)
    return _special.digamma(xp, w).astype(x.dtype, copy=False)


class DiGamma(function_node.FunctionNode):
    """Elementwise digamma function."""

    check_type_forward = staticmethod(check_unary_float)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return kernels.lookup('digamma', x)(x),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.polygamma import polygamma
        x, = self.get_retained_inputs()
        return grad_outputs[0] * polygamma(1, x),


def digamma(x):
    """Elementwise digamma function:
    :math:`y = \\psi(x) = \\frac{d}{dx} \\log \\Gamma(x)`.

    It is NaN at the poles :math:`0, -1, -2, \\ldots`; its derivative is
    ``polygamma(1, x)``. No SciPy is needed.

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return DiGamma().apply((x,))[0]
