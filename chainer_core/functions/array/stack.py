"""stack: join arrays of one shape along a new axis."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.utils import type_check


@kernels.declare('stack')
def _stack(xp, xs, axis):
    """The arrays xs (a tuple, one shape) joined along a new axis."""
    return xp.stack(xs, axis=axis)


class Stack(function_node.FunctionNode):
    """Join arrays along a new axis."""

    def __init__(self, axis=0):
        self.axis = _util.check_int(axis, 'stack', 'axis')

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        type_check.argname(in_types, _util.input_names(in_types, 'xs'))
        x0 = in_types[0]
        _util.expect_axis(x0, self.axis, 'axis', extra=1)
        for t in in_types[1:]:
            type_check.expect(t.dtype == x0.dtype, t.shape == x0.shape)

    def forward(self, inputs):
        return kernels.lookup('stack', inputs[0])(inputs, self.axis),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.separate import separate
        gxs = separate(grad_outputs[0], self.axis)
        return tuple(gxs[i] for i in indexes)


def stack(xs, axis=0):
    """Join the arrays ``xs``, all of one shape, along a new axis.

    Args:
        xs (list or tuple of Variable or array): inputs of one shape and
            dtype.
        axis (int): the position of the new axis in the output, in
            ``[-ndim - 1, ndim]`` (``ndim`` of the inputs).

    Returns:
        Variable: output with ``y.shape[axis] == len(xs)``.
    """
    if not isinstance(xs, (list, tuple)):
        raise TypeError('stack: xs must be a list or tuple of arrays, got '
                        '{}'.format(type(xs).__name__))
    return Stack(axis).apply(tuple(xs))[0]
