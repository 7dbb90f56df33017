"""log1p: the logarithm of one plus the input."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math._util import check_unary_float


@kernels.declare('log1p')
def _log1p(xp, x):
    """y = log(1 + x), accurate for small x."""
    return xp.log1p(x)


class Log1p(function_node.FunctionNode):
    """Elementwise :math:`\\log(1 + x)`."""

    check_type_forward = staticmethod(check_unary_float)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return kernels.lookup('log1p', x)(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] / (x + 1.0),


def log1p(x):
    """Elementwise natural logarithm of one plus the input:
    :math:`y = \\log(1 + x)`, without the rounding of forming ``1 + x``
    first (accurate for ``|x|`` much smaller than 1).

    Args:
        x (Variable or array): input, float16/32/64, ``x > -1``.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return Log1p().apply((x,))[0]
