"""space2depth: move spatial blocks into channels."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array.depth2space import check_block_size
from chainer_core.utils import type_check


@kernels.declare('space2depth')
def _space2depth(xp, x, r):
    """(B, C, H*r, W*r) -> (B, r*r*C, H, W), with
    y[b, (i*r + j)*C + c, h, w] = x[b, c, h*r + i, w*r + j]."""
    b, c, hr, wr = x.shape
    h, w = hr // r, wr // r
    y = x.reshape(b, c, h, r, w, r).transpose(0, 3, 5, 1, 2, 4)
    return y.reshape(b, r * r * c, h, w)


class Space2Depth(function_node.FunctionNode):
    """Rearrange spatial blocks into channels."""

    def __init__(self, r):
        self.r = check_block_size(r, 'space2depth')

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('X',))
        x_type = in_types[0]
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim == 4)
        r = type_check.make_variable(self.r, 'r')
        type_check.expect(x_type.shape[2] % r == 0, x_type.shape[3] % r == 0)

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('space2depth', x)(x, self.r),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.depth2space import depth2space
        return depth2space(grad_outputs[0], self.r),


def space2depth(X, r):
    """Move spatial blocks of size ``r x r`` into channels (the inverse of
    :func:`depth2space`).

    ``y[b, (i*r + j)*C + c, h, w] = X[b, c, h*r + i, w*r + j]``.

    Args:
        X (Variable or array): float input of shape ``(B, C, H*r, W*r)``.
        r (int): the block size.

    Returns:
        Variable: output of shape ``(B, r*r*C, H, W)``.
    """
    return Space2Depth(r).apply((X,))[0]
