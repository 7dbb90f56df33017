"""expand_dims: insert an axis of size 1."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.utils import type_check


@kernels.declare('expand_dims')
def _expand_dims(xp, x, axis):
    """x with a new axis of size 1 at position axis (a view)."""
    return xp.expand_dims(x, axis)


class ExpandDims(function_node.FunctionNode):
    """Insert an axis of size 1."""

    def __init__(self, axis):
        self.axis = _util.check_int(axis, 'expand_dims', 'axis')

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        _util.expect_axis(in_types[0], self.axis, 'axis', extra=1)

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('expand_dims', x)(x, self.axis),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.reshape import reshape
        return reshape(grad_outputs[0], self.inputs[0].shape),


def expand_dims(x, axis):
    """Insert an axis of size 1 into ``x`` at position ``axis``.

    Args:
        x (Variable or array): input.
        axis (int): where the new axis goes in the output, in
            ``[-x.ndim - 1, x.ndim]`` (negative counts from the end).

    Returns:
        Variable: output of ``x.ndim + 1`` axes, ``y.shape[axis] == 1``.
    """
    return ExpandDims(axis).apply((x,))[0]
