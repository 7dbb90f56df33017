"""zoneout: keep random elements of the previous state."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.configuration import config
from chainer_core.functions.noise import _util as _noise
from chainer_core.functions.normalization import _util
from chainer_core.utils import type_check


@kernels.declare('zoneout')
def _zoneout(xp, h, x, ratio):
    """(y, flag_x): flag_x is True with probability 1 - ratio per element,
    y = x where flag_x, else h."""
    flag_x = _noise.uniform(xp, x.shape) >= ratio
    return xp.where(flag_x, x, h), flag_x


class Zoneout(function_node.FunctionNode):
    """Elementwise random choice between ``h`` and ``x``."""

    def __init__(self, zoneout_ratio):
        self.zoneout_ratio = _util.check_number(
            'zoneout', 'ratio', zoneout_ratio, low=0, high=1)

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('h', 'x'))
        h_type, x_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            h_type.dtype == x_type.dtype,
            h_type.shape == x_type.shape,
        )

    def forward(self, inputs):
        h, x = inputs
        y, flag_x = kernels.lookup('zoneout', x)(h, x, self.zoneout_ratio)
        self.flag_x = flag_x.astype(x.dtype)
        self.flag_h = (~flag_x).astype(x.dtype)
        return y,

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return tuple(gy * (self.flag_h if i == 0 else self.flag_x)
                     for i in indexes)


def zoneout(h, x, ratio=.5, **kwargs):
    """zoneout(h, x, ratio=.5)

    Zoneout: in training mode (``chainer.config.train``) each element of the
    output is the previous state ``h`` with probability ``ratio`` and the
    new value ``x`` otherwise. Outside training mode ``x`` is returned as it
    is. Random numbers come from ``numpy.random`` for NumPy arrays.

    Args:
        h (Variable or array): the previous state, float16/32/64.
        x (Variable or array): the new value, of the shape and dtype of
            ``h``.
        ratio (float): the probability of keeping ``h``, in [0, 1].

    Returns:
        Variable of the shape and dtype of ``x``. Differentiable at any
        order for the drawn choice (it is linear in ``h`` and ``x``).
    """
    _util.parse_kwargs('zoneout', kwargs)
    node = Zoneout(ratio)
    if config.train:
        return node.apply((h, x))[0]
    from chainer_core.variable import as_variable
    return as_variable(x)
