"""fmod: the remainder of division, with the sign of the dividend."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math._util import check_float_inputs, sum_to_shape
from chainer_core.utils import type_check


@kernels.declare('fmod')
def _fmod(xp, x, divisor):
    """y = x - fix(x / divisor) * divisor (C's fmod), with broadcasting."""
    return xp.fmod(x, divisor)


class Fmod(function_node.FunctionNode):
    """Elementwise remainder of ``x / divisor`` (C's ``fmod``)."""

    def check_type_forward(self, in_types):
        check_float_inputs(in_types, ('x', 'divisor'))
        type_check.expect_broadcast_shapes(in_types[0].shape,
                                           in_types[1].shape)

    def forward(self, inputs):
        x, divisor = inputs
        self.retain_inputs((0, 1))
        return kernels.lookup('fmod', x)(x, divisor),

    def backward(self, indexes, grad_outputs):
        x, divisor = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(sum_to_shape(gy, x.shape))
        if 1 in indexes:
            # y = x - fix(x / d) d, and fix is locally constant.
            q = kernels.lookup('fix', x.array)(x.array / divisor.array)
            ret.append(sum_to_shape(gy * -q, divisor.shape))
        return tuple(ret)


def fmod(x, divisor):
    """Elementwise remainder of division with the sign of ``x``:
    :math:`y = x - \\mathrm{fix}(x / d)\\, d`, as C's ``fmod`` (unlike
    Python's ``%``, whose result takes the sign of the divisor).

    The gradients are :math:`\\partial y / \\partial x = 1` and
    :math:`\\partial y / \\partial d = -\\mathrm{fix}(x / d)`, away from the
    points where ``x / d`` is an integer.

    Args:
        x (Variable or array): dividend, float16/32/64.
        divisor (Variable or array): divisor, of the dtype of ``x``; the two
            broadcast together.

    Returns:
        Variable of the broadcast shape, of the dtype of the inputs.
    """
    return Fmod().apply((x, divisor))[0]
