"""log_ndtr: the logarithm of the standard normal distribution function."""
import math

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math import _special
from chainer_core.functions.math._util import check_unary_float, compute_dtype


@kernels.declare('log_ndtr')
def _log_ndtr(xp, x):
    """y = log(ndtr(x)), finite far into the lower tail where ndtr
    underflows (float16 is evaluated in float32)."""
    w = x.astype(compute_dtype(x.dtype), copy=False)
    return _special.log_ndtr(xp, w).astype(x.dtype, copy=False)


class LogNdtr(function_node.FunctionNode):
    """Elementwise logarithm of the standard normal distribution
    function."""

    check_type_forward = staticmethod(check_unary_float)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        return kernels.lookup('log_ndtr', x)(x),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.exponential import exp
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        # The density over the distribution function, in logarithms so
        # that neither underflows in the lower tail.
        return grad_outputs[0] * exp(x * x * -0.5 - y) / math.sqrt(
            2 * math.pi),


def log_ndtr(x):
    """Elementwise logarithm of the standard normal distribution function:
    :math:`y = \\log \\mathrm{ndtr}(x)`.

    Computed as :math:`\\log(\\mathrm{erfcx}(-x/\\sqrt 2) / 2) - x^2/2` for
    negative ``x``, so it stays finite (about :math:`-x^2/2`) where
    :func:`ndtr` underflows to zero, and as
    :math:`\\mathrm{log1p}(-\\mathrm{ndtr}(-x))` for positive ``x``. No
    SciPy is needed.

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> F.log_ndtr(np.array([-40.0, 0.0])).array
        array([-804.60844201,   -0.69314718])
    """
    return LogNdtr().apply((x,))[0]
