"""floor: the largest integer not above each element (not differentiable)."""
from chainer_core._runtime import kernels
from chainer_core.functions.math._util import nondifferentiable


@kernels.declare('floor')
def _floor(xp, x):
    """y = floor(x), in the dtype of x."""
    return xp.asarray(xp.floor(x), dtype=x.dtype)


def floor(x):
    """Elementwise floor: :math:`y = \\lfloor x \\rfloor`, the largest
    integer not greater than ``x``.

    Its derivative is zero almost everywhere, so, as in Chainer, the
    result is a Variable outside the graph: backprop does not pass through
    it.

    Args:
        x (Variable or array): input.

    Returns:
        Variable of the shape and dtype of ``x``, not requiring gradients.
    """
    return nondifferentiable('floor', x)
