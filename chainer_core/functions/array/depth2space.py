"""depth2space: move blocks of channels into spatial positions."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.utils import type_check


@kernels.declare('depth2space')
def _depth2space(xp, x, r):
    """(B, r*r*C, H, W) -> (B, C, H*r, W*r), with
    y[b, c, h*r + i, w*r + j] = x[b, (i*r + j)*C + c, h, w]."""
    b, depth, h, w = x.shape
    c = depth // (r * r)
    y = x.reshape(b, r, r, c, h, w).transpose(0, 3, 4, 1, 5, 2)
    return y.reshape(b, c, h * r, w * r)


def check_block_size(r, op):
    r = _util.check_int(r, op, 'r')
    if r <= 0:
        raise ValueError('{}: r must be positive, got {}'.format(op, r))
    return r


class Depth2Space(function_node.FunctionNode):
    """Rearrange channels into spatial blocks."""

    def __init__(self, r):
        self.r = check_block_size(r, 'depth2space')

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('X',))
        x_type = in_types[0]
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim == 4)
        r = type_check.make_variable(self.r, 'r')
        type_check.expect(x_type.shape[1] % (r * r) == 0)

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('depth2space', x)(x, self.r),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.space2depth import space2depth
        return space2depth(grad_outputs[0], self.r),


def depth2space(X, r):
    """Move blocks of channels to spatial positions (the inverse of
    :func:`space2depth`).

    ``y[b, c, h*r + i, w*r + j] = X[b, (i*r + j)*C + c, h, w]``.

    Args:
        X (Variable or array): float input of shape ``(B, r*r*C, H, W)``.
        r (int): the block size.

    Returns:
        Variable: output of shape ``(B, C, H*r, W*r)``.
    """
    return Depth2Space(r).apply((X,))[0]
