"""expm1: the exponential minus one."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math._util import check_unary_float


@kernels.declare('expm1')
def _expm1(xp, x):
    """y = exp(x) - 1, accurate for small x."""
    return xp.expm1(x)


class Expm1(function_node.FunctionNode):
    """Elementwise :math:`e^x - 1`."""

    check_type_forward = staticmethod(check_unary_float)

    def forward(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        return kernels.lookup('expm1', x)(x),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        # d/dx (e^x - 1) = e^x = y + 1.
        return grad_outputs[0] * (y + 1.0),


def expm1(x):
    """Elementwise exponential minus one: :math:`y = e^x - 1`, without the
    cancellation of subtracting 1 from ``exp(x)`` (accurate for small
    ``|x|``).

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return Expm1().apply((x,))[0]
