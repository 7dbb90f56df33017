"""concat: join arrays along an existing axis."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.utils import type_check


@kernels.declare('concat')
def _concat(xp, xs, axis):
    """The arrays xs (a tuple) joined along axis."""
    return xp.concatenate(xs, axis=axis)


def check_same_except(in_types, axis):
    """Type-check that the inputs agree in dtype, ndim and every size but
    the one along ``axis`` (which must index the first input)."""
    x0 = in_types[0]
    ndim = type_check.eval(x0.ndim)
    axis %= ndim
    for t in in_types[1:]:
        type_check.expect(t.dtype == x0.dtype, t.ndim == x0.ndim)
        for d in range(ndim):
            if d != axis:
                type_check.expect(t.shape[d] == x0.shape[d])


class Concat(function_node.FunctionNode):
    """Join arrays along an axis."""

    def __init__(self, axis=1):
        self.axis = _util.check_int(axis, 'concat', 'axis')

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        type_check.argname(in_types, _util.input_names(in_types, 'xs'))
        _util.expect_axis(in_types[0], self.axis, 'axis')
        check_same_except(in_types, self.axis)

    def forward(self, inputs):
        return kernels.lookup('concat', inputs[0])(inputs, self.axis),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.split_axis import split_axis
        gy, = grad_outputs
        if len(self.inputs) == 1:
            return gy,
        axis = self.axis % gy.ndim
        bounds = []
        end = 0
        for node in self.inputs[:-1]:
            end += node.shape[axis]
            bounds.append(end)
        gxs = split_axis(gy, bounds, axis)
        return tuple(gxs[i] for i in indexes)


def concat(xs, axis=1):
    """Join the arrays ``xs`` along the axis ``axis``.

    Args:
        xs (list or tuple of Variable or array): inputs of one dtype and
            ndim whose shapes agree except along ``axis``.
        axis (int): the axis to join along (negative counts from the end).

    Returns:
        Variable: output whose size along ``axis`` is the sum of the
        inputs'.
    """
    if not isinstance(xs, (list, tuple)):
        raise TypeError('concat: xs must be a list or tuple of arrays, got '
                        '{}'.format(type(xs).__name__))
    return Concat(axis).apply(tuple(xs))[0]
