"""fliplr: reverse the columns (the second axis)."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.utils import type_check


@kernels.declare('fliplr')
def _fliplr(xp, x):
    """x reversed along axis 1 (a view)."""
    return xp.fliplr(x)


class FlipLR(function_node.FunctionNode):
    """Reverse along the second axis."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('a',))
        type_check.expect(in_types[0].ndim >= 2)

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('fliplr', x)(x),

    def backward(self, indexes, grad_outputs):
        return FlipLR().apply(grad_outputs)


def fliplr(a):
    """Reverse ``a`` left to right: along its second axis.

    Args:
        a (Variable or array): input of at least two axes.

    Returns:
        Variable: output of the shape of ``a``.
    """
    return FlipLR().apply((a,))[0]
