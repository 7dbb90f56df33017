"""square: the elementwise square."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math._util import check_unary_float


@kernels.declare('square')
def _square(xp, x):
    """y = x * x."""
    return xp.square(x)


class Square(function_node.FunctionNode):
    """Elementwise square."""

    check_type_forward = staticmethod(check_unary_float)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return kernels.lookup('square', x)(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * (x * 2.0),


def square(x):
    """Elementwise square: :math:`y = x^2`.

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return Square().apply((x,))[0]
