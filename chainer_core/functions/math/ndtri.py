"""ndtri: the inverse of the standard normal distribution function."""
import math

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math import _special
from chainer_core.functions.math._util import check_unary_float, compute_dtype


@kernels.declare('ndtri')
def _ndtri(xp, x):
    """y with ndtr(y) = x for 0 < x < 1 (-sqrt(2) erfcinv(2 x)); -inf at
    0, +inf at 1, NaN outside (float16 is evaluated in float32)."""
    w = x.astype(compute_dtype(x.dtype), copy=False)
    return _special.ndtri(xp, w).astype(x.dtype, copy=False)


class Ndtri(function_node.FunctionNode):
    """Elementwise inverse of the standard normal distribution
    function."""

    check_type_forward = staticmethod(check_unary_float)

    def forward(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        return kernels.lookup('ndtri', x)(x),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.exponential import exp
        y, = self.get_retained_outputs()
        # One over the standard normal density at y = ndtri(x).
        return grad_outputs[0] * exp(y * y * 0.5) * math.sqrt(2 * math.pi),


def ndtri(x):
    """Elementwise inverse of the standard normal distribution function
    (the normal quantile): :math:`y` with :math:`\\mathrm{ndtr}(y) = x`.

    Defined on :math:`(0, 1)`; :math:`-\\infty` at 0, :math:`+\\infty` at
    1 and NaN outside. Both tails keep their accuracy. No SciPy is
    needed.

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> F.ndtri(np.array([0.025, 0.5])).array
        array([-1.95996398,  0.        ])
    """
    return Ndtri().apply((x,))[0]
