"""ceil: the smallest integer not below each element (not differentiable)."""
from chainer_core._runtime import kernels
from chainer_core.functions.math._util import nondifferentiable


@kernels.declare('ceil')
def _ceil(xp, x):
    """y = ceil(x), in the dtype of x."""
    return xp.asarray(xp.ceil(x), dtype=x.dtype)


def ceil(x):
    """Elementwise ceiling: :math:`y = \\lceil x \\rceil`, the smallest
    integer not less than ``x``.

    Its derivative is zero almost everywhere, so, as in Chainer, the
    result is a Variable outside the graph: backprop does not pass through
    it.

    Args:
        x (Variable or array): input.

    Returns:
        Variable of the shape and dtype of ``x``, not requiring gradients.
    """
    return nondifferentiable('ceil', x)
