"""separate: the slices of an array along an axis, as separate arrays."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.utils import type_check


@kernels.declare('separate')
def _separate(xp, x, axis):
    """The slices x[..., i, ...] along axis (views), as a tuple."""
    head = (slice(None),) * axis
    # The Ellipsis keeps a 0-D slice an array rather than a scalar.
    return tuple(x[head + (i, Ellipsis)] for i in range(x.shape[axis]))


class Separate(function_node.FunctionNode):
    """Split an array into its slices along an axis."""

    def __init__(self, axis=0):
        self.axis = _util.check_int(axis, 'separate', 'axis')

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        _util.expect_axis(in_types[0], self.axis, 'axis')

    def forward(self, inputs):
        x, = inputs
        self.axis %= x.ndim
        ys = kernels.lookup('separate', x)(x, self.axis)
        self._shape = x.shape[:self.axis] + x.shape[self.axis + 1:]
        return ys

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.stack import stack
        gys = _util.fill_none_grads(
            grad_outputs, [self._shape] * len(grad_outputs),
            self.inputs[0].dtype)
        return stack(gys, self.axis),


def separate(x, axis=0):
    """The slices of ``x`` along ``axis``, as separate Variables.

    Args:
        x (Variable or array): input.
        axis (int): the axis to take the slices along.

    Returns:
        tuple of Variable: ``x.shape[axis]`` outputs, each of ``x``'s shape
        without ``axis``. Gradients of outputs that are not used downstream
        count as zeros.
    """
    return Separate(axis).apply((x,))
