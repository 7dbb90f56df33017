"""cumsum: cumulative sums along an axis."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array._util import is_int
from chainer_core.functions.math._util import check_unary_float
from chainer_core.utils import type_check


@kernels.declare('cumsum')
def _cumsum(xp, x, axis, reverse):
    """Running sums of x along axis; from the last element backwards when
    reverse (y[i] = x[i] + x[i+1] + ... + x[-1])."""
    if reverse:
        return xp.flip(xp.cumsum(xp.flip(x, axis), axis=axis), axis)
    return xp.cumsum(x, axis=axis)


def _check_axis_int(axis, op):
    if not is_int(axis):
        raise TypeError('{}: axis must be None or an int, got {!r}'.format(
            op, axis))


def check_axis_in_range(x_type, axis):
    """Expect the int ``axis`` to index ``x_type``."""
    a = type_check.make_variable(axis, 'axis')
    if axis >= 0:
        type_check.expect(a < x_type.ndim)
    else:
        type_check.expect(-a <= x_type.ndim)


class Cumsum(function_node.FunctionNode):
    """Cumulative sum along one axis (from the end when ``reverse``)."""

    def __init__(self, axis, reverse=False):
        _check_axis_int(axis, 'cumsum')
        self.axis = int(axis)
        self.reverse = reverse

    def check_type_forward(self, in_types):
        check_unary_float(in_types)
        check_axis_in_range(in_types[0], self.axis)

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('cumsum', x)(x, self.axis, self.reverse),

    def backward(self, indexes, grad_outputs):
        # Each x[j] enters the sums y[i] for i >= j: the gradient sums gy the
        # other way round.
        return Cumsum(self.axis, not self.reverse).apply(grad_outputs)


def cumsum(x, axis=None):
    """Cumulative sum along an axis: :math:`y_i = \\sum_{j \\le i} x_j`.

    Args:
        x (Variable or array): input, float16/32/64.
        axis (int or None): the axis to sum along; None sums over the
            flattened input.

    Returns:
        Variable of the shape of ``x`` (one-dimensional when ``axis`` is
        None), of its dtype.
    """
    if axis is None:
        from chainer_core.functions.array.reshape import reshape
        return Cumsum(0).apply((reshape(x, (-1,)),))[0]
    return Cumsum(axis).apply((x,))[0]
