"""flatten: all elements in one axis."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.utils import type_check


@kernels.declare('flatten')
def _flatten(xp, x):
    """x as a 1-D array in C order (a view where possible)."""
    return x.reshape(x.size)


class Flatten(function_node.FunctionNode):
    """Flatten to one axis."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('flatten', x)(x),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.reshape import reshape
        return reshape(grad_outputs[0], self.inputs[0].shape),


def flatten(x):
    """Flatten ``x`` to one axis, in C (row-major) order.

    Args:
        x (Variable or array): input of any shape.

    Returns:
        Variable: output of shape ``(x.size,)``.
    """
    return Flatten().apply((x,))[0]
