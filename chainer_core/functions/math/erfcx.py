"""erfcx: the scaled complementary error function."""
import math

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math import _special
from chainer_core.functions.math._util import check_unary_float, compute_dtype


@kernels.declare('erfcx')
def _erfcx(xp, x):
    """y = exp(x^2) erfc(x), finite for large x where erfc underflows;
    +inf below about -26.6 (float16 is evaluated in float32)."""
    w = x.astype(compute_dtype(x.dtype), copy=False)
    return _special.erfcx(xp, w).astype(x.dtype, copy=False)


class Erfcx(function_node.FunctionNode):
    """Elementwise scaled complementary error function."""

    check_type_forward = staticmethod(check_unary_float)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        return kernels.lookup('erfcx', x)(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        return grad_outputs[0] * (2 * x * y - 2 / math.sqrt(math.pi)),


def erfcx(x):
    """Elementwise scaled complementary error function:
    :math:`y = e^{x^2} \\mathrm{erfc}(x)`.

    For large ``x`` it behaves like :math:`1 / (x \\sqrt{\\pi})` and stays
    accurate where ``erfc`` underflows to zero. Its derivative is
    :math:`2 x y - 2 / \\sqrt{\\pi}`. No SciPy is needed.

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> F.erfcx(np.array([0.0, 30.0])).array
        array([1.        , 0.01879589])
    """
    return Erfcx().apply((x,))[0]
