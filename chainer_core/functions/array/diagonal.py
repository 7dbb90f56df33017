"""diagonal: the diagonal of two axes."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.utils import type_check


@kernels.declare('diagonal')
def _diagonal(xp, x, offset, axis1, axis2):
    """numpy.diagonal: the axes axis1 and axis2 removed, the diagonal
    appended as the last axis."""
    return xp.diagonal(x, offset, axis1, axis2)


@kernels.declare('diagonal_grad')
def _diagonal_grad(xp, gy, shape, offset, axis1, axis2):
    """Zeros of shape with gy on the diagonal (offset, axis1, axis2 as in
    diagonal; axis1 and axis2 non-negative)."""
    rest = tuple(s for i, s in enumerate(shape) if i not in (axis1, axis2))
    gx = xp.zeros(rest + (shape[axis1], shape[axis2]), dtype=gy.dtype)
    i = xp.arange(gy.shape[-1])
    gx[..., i + max(-offset, 0), i + max(offset, 0)] = gy
    return xp.moveaxis(gx, (-2, -1), (axis1, axis2))


class Diagonal(function_node.FunctionNode):
    """Take a diagonal."""

    def __init__(self, offset=0, axis1=0, axis2=1):
        self.offset = _util.check_int(offset, 'diagonal', 'offset')
        self.axis1 = _util.check_int(axis1, 'diagonal', 'axis1')
        self.axis2 = _util.check_int(axis2, 'diagonal', 'axis2')

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        x_type = in_types[0]
        type_check.expect(x_type.ndim >= 2)
        _util.expect_axis(x_type, self.axis1, 'axis1')
        _util.expect_axis(x_type, self.axis2, 'axis2')
        ndim = type_check.eval(x_type.ndim)
        if self.axis1 % ndim == self.axis2 % ndim:
            raise type_check.InvalidType(
                'axis1 and axis2 name different axes',
                'axis1 = {}, axis2 = {} for x.ndim = {}'.format(
                    self.axis1, self.axis2, ndim))

    def forward(self, inputs):
        x, = inputs
        self.axis1 %= x.ndim
        self.axis2 %= x.ndim
        return kernels.lookup('diagonal', x)(x, self.offset, self.axis1,
                                             self.axis2),

    def backward(self, indexes, grad_outputs):
        return DiagonalGrad(self.inputs[0].shape, self.offset, self.axis1,
                            self.axis2).apply(grad_outputs)


class DiagonalGrad(function_node.FunctionNode):
    """Place a gradient on a diagonal of zeros."""

    def __init__(self, shape, offset, axis1, axis2):
        self._shape = shape
        self.offset, self.axis1, self.axis2 = offset, axis1, axis2

    def forward(self, inputs):
        gy, = inputs
        return kernels.lookup('diagonal_grad', gy)(
            gy, self._shape, self.offset, self.axis1, self.axis2),

    def backward(self, indexes, grad_outputs):
        return Diagonal(self.offset, self.axis1, self.axis2).apply(
            grad_outputs)


def diagonal(x, offset=0, axis1=0, axis2=1):
    """The diagonal of ``x`` over the axes ``axis1`` and ``axis2``.

    As ``numpy.diagonal``: ``y[..., i] = x[..., i, i + offset]`` (for
    ``axis1``, ``axis2`` the last two axes); those two axes are removed and
    the diagonal becomes the last axis of the output.

    Args:
        x (Variable or array): input of at least two axes.
        offset (int): the diagonal's offset from the main diagonal
            (positive: above it).
        axis1 (int): the first axis of the 2-D sub-arrays.
        axis2 (int): the second axis.

    Returns:
        Variable: the diagonal.
    """
    return Diagonal(offset, axis1, axis2).apply((x,))[0]
