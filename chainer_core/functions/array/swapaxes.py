"""swapaxes: exchange two axes."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.utils import type_check


@kernels.declare('swapaxes')
def _swapaxes(xp, x, axis1, axis2):
    """x with axes axis1 and axis2 exchanged (a view where possible)."""
    return xp.swapaxes(x, axis1, axis2)


class Swapaxes(function_node.FunctionNode):
    """Exchange two axes."""

    def __init__(self, axis1, axis2):
        self.axis1 = _util.check_int(axis1, 'swapaxes', 'axis1')
        self.axis2 = _util.check_int(axis2, 'swapaxes', 'axis2')

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        _util.expect_axis(in_types[0], self.axis1, 'axis1')
        _util.expect_axis(in_types[0], self.axis2, 'axis2')

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('swapaxes', x)(x, self.axis1, self.axis2),

    def backward(self, indexes, grad_outputs):
        return Swapaxes(self.axis1, self.axis2).apply(grad_outputs)


def swapaxes(x, axis1, axis2):
    """Exchange the axes ``axis1`` and ``axis2`` of ``x``.

    Args:
        x (Variable or array): input.
        axis1 (int): one axis (negative counts from the end).
        axis2 (int): the other axis.

    Returns:
        Variable: ``x`` with ``y.shape[axis1] == x.shape[axis2]`` and
        ``y.shape[axis2] == x.shape[axis1]``.
    """
    return Swapaxes(axis1, axis2).apply((x,))[0]
