"""mean_absolute_error: the mean of absolute differences."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.loss import _util
from chainer_core.utils import type_check


@kernels.declare('mean_absolute_error')
def _mean_absolute_error(xp, x0, x1):
    """0-dim array: mean(|x0 - x1|)."""
    diff = abs(x0 - x1).astype(_util.float_type(x0.dtype), copy=False)
    return xp.asarray(diff.sum() / max(diff.size, 1), dtype=x0.dtype)


def _check_pair(in_types):
    type_check.expect(in_types.size() == 2)
    type_check.argname(in_types, ('x0', 'x1'))
    type_check.expect(
        in_types[0].dtype.kind == 'f',
        in_types[0].dtype == in_types[1].dtype,
        in_types[0].shape == in_types[1].shape,
    )


class MeanAbsoluteError(function_node.FunctionNode):
    """Mean absolute error of two arrays of one shape."""

    check_type_forward = staticmethod(_check_pair)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x0, x1 = inputs
        return kernels.lookup('mean_absolute_error', x0)(x0, x1),

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        xp = x0.xp
        # The sign is constant between kinks, so the gradient is linear in
        # gy and its own derivative by x0, x1 is 0.
        slope = xp.sign(x0.array - x1.array) * \
            x0.dtype.type(1.0 / max(x0.size, 1))
        g = _util.broadcast_like(grad_outputs[0], x0.shape) * slope
        return tuple(g if i == 0 else -g for i in indexes)


def mean_absolute_error(x0, x1):
    """Mean absolute error: :math:`\\frac{1}{N} \\sum_i |x_{0,i} - x_{1,i}|`.

    Args:
        x0, x1 (Variable or array): inputs of one shape and float dtype.

    Returns:
        Variable: a 0-dim array of the inputs' dtype.
    """
    return MeanAbsoluteError().apply((x0, x1))[0]
