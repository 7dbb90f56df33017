"""minimum: the elementwise smaller of two arrays."""
from chainer_core._runtime import kernels
from chainer_core.functions.math.maximum import Maximum


@kernels.declare('minimum')
def _minimum(xp, x1, x2):
    """y = the smaller of x1 and x2, with broadcasting (NaN propagates)."""
    return xp.minimum(x1, x2)


@kernels.declare('minimum_mask')
def _minimum_mask(xp, x1, x2):
    """1 where x1 <= x2 (x1 is the minimum), else 0, in the dtype of x1
    and of the broadcast shape."""
    return xp.asarray(x1 <= x2, dtype=x1.dtype)


class Minimum(Maximum):
    """Elementwise minimum with broadcasting."""

    _kernel = 'minimum'
    _mask_kernel = 'minimum_mask'


def minimum(x1, x2):
    """Elementwise minimum: :math:`y = \\min(x_1, x_2)`.

    The gradient goes to the smaller input; where the two are equal it goes
    to ``x1``.

    Args:
        x1 (Variable or array): input, float16/32/64.
        x2 (Variable or array): input of the dtype of ``x1``; the two
            broadcast together.

    Returns:
        Variable of the broadcast shape, of the dtype of the inputs.
    """
    return Minimum().apply((x1, x2))[0]
