"""batch_l2_norm_squared: the squared L2 norm of each sample."""
import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.utils import type_check


@kernels.declare('batch_l2_norm_squared')
def _batch_l2_norm_squared(xp, x):
    """y (N,): the sum of the squares of x[i] over all its axes (float16
    accumulates in float32)."""
    acc = numpy.float32 if x.dtype == numpy.float16 else x.dtype
    flat = x.reshape(len(x), x[:1].size).astype(acc, copy=False)
    return (flat * flat).sum(axis=1).astype(x.dtype, copy=False)


class BatchL2NormSquared(function_node.FunctionNode):
    """The squared L2 norm of every sample of a batch."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim >= 2)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return kernels.lookup('batch_l2_norm_squared', x)(x),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.broadcast import broadcast_to
        from chainer_core.functions.array.reshape import reshape
        x, = self.get_retained_inputs()
        gy = reshape(grad_outputs[0], (len(x),) + (1,) * (x.ndim - 1))
        return 2 * x * broadcast_to(gy, x.shape),


def batch_l2_norm_squared(x):
    """The squared L2 norm of each sample:
    :math:`y_i = \\sum_j x_{i,j}^2`, summed over every axis but the first.

    Args:
        x (Variable or array): input of shape ``(N, ...)`` with at least
            two axes.

    Returns:
        Variable of shape ``(N,)`` and the dtype of ``x``.

    .. admonition:: Example

        >>> F.batch_l2_norm_squared(np.array([[3.0, 4.0], [1.0, 0.0]])).array
        array([25.,  1.])
    """
    return BatchL2NormSquared().apply((x,))[0]
