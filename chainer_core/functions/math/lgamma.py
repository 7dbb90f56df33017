"""lgamma: the logarithm of the absolute value of the gamma function."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math import _special
from chainer_core.functions.math._util import check_unary_float, compute_dtype


@kernels.declare('lgamma')
def _lgamma(xp, x):
    """y = log |Gamma(x)|; +inf at 0, -1, -2, ... (float16 is evaluated in
    float32)."""
    w = x.astype(compute_dtype(x.dtype), copy=False)
    return _special.lgamma(xp, w).astype(x.dtype, copy=False)


class LGamma(function_node.FunctionNode):
    """Elementwise log-gamma function."""

    check_type_forward = staticmethod(check_unary_float)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return kernels.lookup('lgamma', x)(x),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.digamma import digamma
        x, = self.get_retained_inputs()
        return grad_outputs[0] * digamma(x),


def lgamma(x):
    """Elementwise logarithm of the absolute value of the gamma function:
    :math:`y = \\log |\\Gamma(x)|`.

    It is :math:`+\\infty` at the poles :math:`0, -1, -2, \\ldots`; its
    derivative is :func:`digamma`. No SciPy is needed.

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return LGamma().apply((x,))[0]
