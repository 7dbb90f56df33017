"""fix: rounding toward zero (not differentiable)."""
from chainer_core._runtime import kernels
from chainer_core.functions.math._util import nondifferentiable


@kernels.declare('fix')
def _fix(xp, x):
    """y = x rounded toward zero, in the dtype of x."""
    return xp.asarray(xp.fix(x), dtype=x.dtype)


def fix(x):
    """Elementwise rounding toward zero: the integer part of ``x``
    (:math:`\\lfloor x \\rfloor` for :math:`x \\ge 0`,
    :math:`\\lceil x \\rceil` below).

    Its derivative is zero almost everywhere, so, as in Chainer, the
    result is a Variable outside the graph: backprop does not pass through
    it.

    Args:
        x (Variable or array): input.

    Returns:
        Variable of the shape and dtype of ``x``, not requiring gradients.
    """
    return nondifferentiable('fix', x)
