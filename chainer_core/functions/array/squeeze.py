"""squeeze: remove axes of size 1."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.utils import type_check


@kernels.declare('squeeze')
def _squeeze(xp, x, axis):
    """x without the size-1 axes axis (None: all of them); a view."""
    return xp.squeeze(x, axis)


class Squeeze(function_node.FunctionNode):
    """Remove axes of size 1."""

    def __init__(self, axis=None):
        if axis is not None:
            axis = _util.check_axes(axis, 'squeeze', 'axis')
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        if self.axis is None:
            return
        x_type = in_types[0]
        for a in self.axis:
            _util.expect_axis(x_type, a, 'axis')
            type_check.expect(
                x_type.shape[type_check.make_variable(a, 'axis')] == 1)
        ndim = type_check.eval(x_type.ndim)
        if len({a % ndim for a in self.axis}) != len(self.axis):
            raise type_check.InvalidType(
                'no repeated axis', 'axis = {}'.format(self.axis))

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('squeeze', x)(x, self.axis),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.reshape import reshape
        return reshape(grad_outputs[0], self.inputs[0].shape),


def squeeze(x, axis=None):
    """Remove axes of size 1 from ``x``.

    Args:
        x (Variable or array): input.
        axis (None, int or tuple of int): the axes to remove; each must
            have size 1. None removes every axis of size 1.

    Returns:
        Variable: the input without those axes.
    """
    return Squeeze(axis).apply((x,))[0]
