"""flipud: reverse the rows (the first axis)."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.utils import type_check


@kernels.declare('flipud')
def _flipud(xp, x):
    """x reversed along axis 0 (a view)."""
    return xp.flipud(x)


class FlipUD(function_node.FunctionNode):
    """Reverse along the first axis."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('a',))
        type_check.expect(in_types[0].ndim >= 1)

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('flipud', x)(x),

    def backward(self, indexes, grad_outputs):
        return FlipUD().apply(grad_outputs)


def flipud(a):
    """Reverse ``a`` upside down: along its first axis.

    Args:
        a (Variable or array): input of at least one axis.

    Returns:
        Variable: output of the shape of ``a``.
    """
    return FlipUD().apply((a,))[0]
