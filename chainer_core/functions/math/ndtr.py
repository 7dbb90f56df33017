"""ndtr: the distribution function of the standard normal distribution."""
import math

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math import _special
from chainer_core.functions.math._util import check_unary_float, compute_dtype


@kernels.declare('ndtr')
def _ndtr(xp, x):
    """y = erfc(-x / sqrt(2)) / 2, the standard normal CDF (float16 is
    evaluated in float32)."""
    w = x.astype(compute_dtype(x.dtype), copy=False)
    return _special.ndtr(xp, w).astype(x.dtype, copy=False)


class Ndtr(function_node.FunctionNode):
    """Elementwise standard normal distribution function."""

    check_type_forward = staticmethod(check_unary_float)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return kernels.lookup('ndtr', x)(x),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.exponential import exp
        x, = self.get_retained_inputs()
        # The standard normal density.
        return grad_outputs[0] * exp(x * x * -0.5) / math.sqrt(2 * math.pi),


def ndtr(x):
    """Elementwise distribution function of the standard normal
    distribution:
    :math:`y = \\frac{1}{\\sqrt{2 \\pi}} \\int_{-\\infty}^x e^{-t^2/2} dt
    = \\frac{1}{2} \\mathrm{erfc}(-x / \\sqrt{2})`.

    The lower tail keeps its relative accuracy (no ``1 - ...``
    cancellation). No SciPy is needed.

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> F.ndtr(np.array([-1.0, 0.0, 1.96])).array
        array([0.15865525, 0.5       , 0.9750021 ])
    """
    return Ndtr().apply((x,))[0]
