"""absolute_error: elementwise absolute differences."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.loss.mean_absolute_error import _check_pair


@kernels.declare('absolute_error')
def _absolute_error(xp, x0, x1):
    """|x0 - x1|, elementwise."""
    return abs(x0 - x1)


class AbsoluteError(function_node.FunctionNode):
    """Elementwise absolute error."""

    check_type_forward = staticmethod(_check_pair)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x0, x1 = inputs
        return kernels.lookup('absolute_error', x0)(x0, x1),

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        # A constant sign: the second derivative is 0 away from the kink.
        g = grad_outputs[0] * x0.xp.sign(x0.array - x1.array)
        return tuple(g if i == 0 else -g for i in indexes)


def absolute_error(x0, x1):
    """Elementwise absolute error: :math:`y_i = |x_{0,i} - x_{1,i}|`.

    The gradient at :math:`x_0 = x_1` is taken as 0.

    Args:
        x0, x1 (Variable or array): inputs of one shape and float dtype.

    Returns:
        Variable: of the inputs' shape and dtype.
    """
    return AbsoluteError().apply((x0, x1))[0]
