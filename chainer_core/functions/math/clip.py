"""clip: limit the elements to an interval."""
import numbers

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math._util import check_unary_float


@kernels.declare('clip')
def _clip(xp, x, x_min, x_max):
    """y = x limited to [x_min, x_max] (either bound may be None)."""
    if x_min is None:
        return xp.minimum(x, x.dtype.type(x_max))
    if x_max is None:
        return xp.maximum(x, x.dtype.type(x_min))
    return xp.clip(x, x.dtype.type(x_min), x.dtype.type(x_max))


@kernels.declare('clip_grad')
def _clip_grad(xp, x, gy, x_min, x_max):
    """gx = gy where x_min <= x <= x_max, else 0 (a None bound is open)."""
    inside = xp.ones(x.shape, dtype=bool)
    if x_min is not None:
        inside &= x >= x.dtype.type(x_min)
    if x_max is not None:
        inside &= x <= x.dtype.type(x_max)
    return xp.where(inside, gy, gy.dtype.type(0))


class Clip(function_node.FunctionNode):
    """Clip to ``[x_min, x_max]``."""

    def __init__(self, x_min, x_max):
        for name, v in (('x_min', x_min), ('x_max', x_max)):
            if v is not None and (not isinstance(v, numbers.Real)
                                  or isinstance(v, bool)):
                raise TypeError('clip: {} must be a real number or None, '
                                'got {!r}'.format(name, v))
        if x_min is None and x_max is None:
            raise ValueError('clip: x_min and x_max cannot both be None')
        if x_min is not None and x_max is not None and x_min >= x_max:
            raise ValueError('clip: x_min must be less than x_max, got '
                             'x_min={} and x_max={}'.format(x_min, x_max))
        self.x_min = x_min
        self.x_max = x_max

    check_type_forward = staticmethod(check_unary_float)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return kernels.lookup('clip', x)(x, self.x_min, self.x_max),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return ClipGrad(x.array, self.x_min, self.x_max).apply(grad_outputs)


class ClipGrad(function_node.FunctionNode):
    """``gx = gy`` inside the interval, 0 outside, for a fixed ``x``: linear
    in ``gy``, so its own gradient is itself."""

    def __init__(self, x, x_min, x_max):
        self.x = x
        self.x_min = x_min
        self.x_max = x_max

    def forward(self, inputs):
        gy, = inputs
        return kernels.lookup('clip_grad', gy)(
            self.x, gy, self.x_min, self.x_max),

    def backward(self, indexes, grad_outputs):
        return ClipGrad(self.x, self.x_min, self.x_max).apply(grad_outputs)


def clip(x, x_min, x_max):
    """Clip (limit) the elements of ``x`` to the interval
    ``[x_min, x_max]``: elements outside are replaced by the nearer edge.

    The gradient is 1 inside the interval, at its edges included, and 0
    outside.

    Args:
        x (Variable or array): input, float16/32/64.
        x_min (float or None): lower edge; None for no lower edge.
        x_max (float or None): upper edge, greater than ``x_min``; None for
            no upper edge. At least one of the two must be given.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return Clip(x_min, x_max).apply((x,))[0]
