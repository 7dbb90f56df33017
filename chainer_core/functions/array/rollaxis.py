"""rollaxis: move one axis to a given position."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.utils import type_check


@kernels.declare('rollaxis')
def _rollaxis(xp, x, axis, start):
    """x with axis moved to lie before position start (numpy.rollaxis)."""
    return xp.rollaxis(x, axis, start)


def _permutation(ndim, axis, start):
    """The axes of rollaxis's output, as positions in its input."""
    axis %= ndim
    if start < 0:
        start += ndim
    if axis < start:
        start -= 1
    order = [a for a in range(ndim) if a != axis]
    order.insert(start, axis)
    return order


class Rollaxis(function_node.FunctionNode):
    """Move an axis before another position."""

    def __init__(self, axis, start=0):
        self.axis = _util.check_int(axis, 'rollaxis', 'axis')
        self.start = _util.check_int(start, 'rollaxis', 'start')

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        _util.expect_axis(in_types[0], self.axis, 'axis')
        # start may also be ndim: the end.
        _util.expect_axis(in_types[0], self.start, 'start', extra=1)

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('rollaxis', x)(x, self.axis, self.start),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.transpose import transpose
        order = _permutation(len(self.inputs[0].shape), self.axis,
                             self.start)
        inverse = [0] * len(order)
        for i, a in enumerate(order):
            inverse[a] = i
        return transpose(grad_outputs[0], tuple(inverse)),


def rollaxis(x, axis, start=0):
    """Move the axis ``axis`` of ``x`` so that it lies before ``start``.

    The other axes keep their order (as ``numpy.rollaxis``).

    Args:
        x (Variable or array): input.
        axis (int): the axis to move, in ``[-ndim, ndim)``.
        start (int): the axis is placed before this position, in
            ``[-ndim, ndim]``.

    Returns:
        Variable: the input with its axes permuted.
    """
    return Rollaxis(axis, start).apply((x,))[0]
