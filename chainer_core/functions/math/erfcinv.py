"""erfcinv: the inverse of the complementary error function."""
import math

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math import _special
from chainer_core.functions.math._util import check_unary_float, compute_dtype


@kernels.declare('erfcinv')
def _erfcinv(xp, x):
    """y with erfc(y) = x for 0 < x < 2 (accurate for tiny x); +inf at 0,
    -inf at 2, NaN outside (float16 is evaluated in float32)."""
    w = x.astype(compute_dtype(x.dtype), copy=False)
    return _special.erfcinv(xp, w).astype(x.dtype, copy=False)


class ErfcInv(function_node.FunctionNode):
    """Elementwise inverse complementary error function."""

    check_type_forward = staticmethod(check_unary_float)

    def forward(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        return kernels.lookup('erfcinv', x)(x),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.exponential import exp
        y, = self.get_retained_outputs()
        # The inverse of erfc' = -2/sqrt(pi) exp(-y^2) at y = erfcinv(x).
        return grad_outputs[0] * exp(y * y) * (-math.sqrt(math.pi) / 2),


def erfcinv(x):
    """Elementwise inverse complementary error function: :math:`y` with
    :math:`\\mathrm{erfc}(y) = x`.

    Defined on :math:`(0, 2)`; it is :math:`+\\infty` at 0,
    :math:`-\\infty` at 2 and NaN outside. Unlike ``erfinv(1 - x)`` it
    keeps its accuracy for tiny ``x``. No SciPy is needed.

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> F.erfcinv(np.array([1e-20, 1.0, 1.5])).array
        array([ 6.60158062,  0.        , -0.47693628])
    """
    return ErfcInv().apply((x,))[0]
