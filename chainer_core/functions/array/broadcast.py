"""broadcast_to: repeat an array along size-1 and new leading axes."""
from backend_api import kernels
from chainer_core import function_node
from chainer_core.utils import type_check


@kernels.declare('broadcast_to')
def _broadcast_to(xp, x, shape):
    """x broadcast to shape (a read-only view where the backend allows)."""
    return xp.broadcast_to(x, shape)


class BroadcastTo(function_node.FunctionNode):
    """Broadcast to a given shape."""

    def __init__(self, shape):
        self._shape = tuple(shape)

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        x_type = in_types[0]
        ndim = len(self._shape)
        type_check.expect(x_type.ndim <= ndim)
        x_shape = type_check.eval(x_type.shape)
        for i in range(1, min(len(x_shape), ndim) + 1):
            if x_shape[-i] != 1:
                type_check.expect(x_type.shape[-i] == self._shape[-i])

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('broadcast_to', x)(x, self._shape),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.sum import sum_to
        return sum_to(grad_outputs[0], self.inputs[0].shape),


def broadcast_to(x, shape):
    """Broadcast ``x`` to ``shape`` (NumPy's broadcasting rules).

    Args:
        x (Variable or array): input.
        shape (tuple of int): target shape; each axis of ``x`` must equal the
            target's or be 1.

    Returns:
        Variable of ``shape``.
    """
    shape = tuple(shape)
    if x.shape == shape:
        from chainer_core.variable import as_variable
        return as_variable(x)
    return BroadcastTo(shape).apply((x,))[0]
