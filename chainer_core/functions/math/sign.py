"""sign: the sign of each element (not differentiable)."""
from chainer_core._runtime import kernels
from chainer_core.functions.math._util import nondifferentiable


@kernels.declare('sign')
def _sign(xp, x):
    """y = -1, 0 or 1 as x is negative, zero or positive (NaN stays NaN)."""
    return xp.asarray(xp.sign(x))


def sign(x):
    """Elementwise sign: :math:`-1`, :math:`0` or :math:`1` as ``x`` is
    negative, zero or positive.

    Its derivative is zero almost everywhere, so, as in Chainer, the
    result is a Variable outside the graph: backprop does not pass through
    it.

    Args:
        x (Variable or array): input.

    Returns:
        Variable of the shape and dtype of ``x``, not requiring gradients.
    """
    return nondifferentiable('sign', x)
