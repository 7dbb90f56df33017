"""flip: reverse the order of elements along an axis."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.utils import type_check


@kernels.declare('flip')
def _flip(xp, x, axis):
    """x reversed along axis (a view)."""
    return xp.flip(x, axis)


class Flip(function_node.FunctionNode):
    """Reverse along an axis."""

    def __init__(self, axis):
        self.axis = _util.check_int(axis, 'flip', 'axis')

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        _util.expect_axis(in_types[0], self.axis, 'axis')

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('flip', x)(x, self.axis),

    def backward(self, indexes, grad_outputs):
        return Flip(self.axis).apply(grad_outputs)


def flip(x, axis):
    """Reverse the order of the elements of ``x`` along ``axis``.

    Args:
        x (Variable or array): input of at least one axis.
        axis (int): the axis to reverse (negative counts from the end).

    Returns:
        Variable: output of the shape of ``x``.
    """
    return Flip(axis).apply((x,))[0]
