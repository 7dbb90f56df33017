"""mean_squared_error: the mean of squared differences."""
import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.utils import type_check


@kernels.declare('mean_squared_error')
def _mean_squared_error(xp, x0, x1):
    """Scalar array: mean((x0 - x1) ** 2)."""
    diff = (x0 - x1).ravel()
    # The mean of nothing is nan, as in Chainer (and NumPy's mean).
    with numpy.errstate(invalid='ignore'):
        return xp.asarray(diff.dot(diff) / diff.dtype.type(diff.size),
                          dtype=x0.dtype)


class MeanSquaredError(function_node.FunctionNode):
    """Mean squared error of two arrays of one shape."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('x0', 'x1'))
        type_check.expect(
            in_types[0].dtype.kind == 'f',
            in_types[0].dtype == in_types[1].dtype,
            in_types[0].shape == in_types[1].shape,
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x0, x1 = inputs
        return kernels.lookup('mean_squared_error', x0)(x0, x1),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.broadcast import broadcast_to
        x0, x1 = self.get_retained_inputs()
        gy, = grad_outputs
        diff = x0 - x1
        g = broadcast_to(gy, diff.shape) * diff * (2.0 / max(diff.size, 1))
        ret = []
        if 0 in indexes:
            ret.append(g)
        if 1 in indexes:
            ret.append(-g)
        return tuple(ret)


def mean_squared_error(x0, x1):
    """Mean squared error: :math:`\\frac{1}{N} \\sum_i (x_{0,i} - x_{1,i})^2`.

    Args:
        x0, x1 (Variable or array): inputs of one shape and float dtype.

    Returns:
        Variable: a 0-dim array of the inputs' dtype.
    """
    return MeanSquaredError().apply((x0, x1))[0]
