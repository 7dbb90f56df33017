"""squared_error: elementwise squared differences."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.loss.mean_absolute_error import _check_pair


@kernels.declare('squared_error')
def _squared_error(xp, x0, x1):
    """(x0 - x1) ** 2, elementwise."""
    diff = x0 - x1
    return diff * diff


class SquaredError(function_node.FunctionNode):
    """Elementwise squared error."""

    check_type_forward = staticmethod(_check_pair)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x0, x1 = inputs
        return kernels.lookup('squared_error', x0)(x0, x1),

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        g = grad_outputs[0] * (x0 - x1) * 2.0
        return tuple(g if i == 0 else -g for i in indexes)


def squared_error(x0, x1):
    """Elementwise squared error: :math:`y_i = (x_{0,i} - x_{1,i})^2`.

    Args:
        x0, x1 (Variable or array): inputs of one shape and float dtype.

    Returns:
        Variable: of the inputs' shape and dtype.
    """
    return SquaredError().apply((x0, x1))[0]
