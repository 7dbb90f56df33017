"""linear_interpolate: the elementwise weighted mean of two arrays."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math._util import check_float_inputs
from chainer_core.utils import type_check
from chainer_core.utils.array import one_minus


@kernels.declare('linear_interpolate')
def _linear_interpolate(xp, p, x, y):
    """z = p * x + (1 - p) * y."""
    return p * x + one_minus(p) * y


class LinearInterpolate(function_node.FunctionNode):
    """Elementwise :math:`p x + (1 - p) y`."""

    def check_type_forward(self, in_types):
        check_float_inputs(in_types, ('p', 'x', 'y'))
        p_type, x_type, y_type = in_types
        type_check.expect(x_type.shape == p_type.shape,
                          y_type.shape == p_type.shape)

    def forward(self, inputs):
        p, x, y = inputs
        self.retain_inputs((0, 1, 2))
        return kernels.lookup('linear_interpolate', p)(p, x, y),

    def backward(self, indexes, grad_outputs):
        p, x, y = self.get_retained_inputs()
        g, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(g * (x - y))
        if 1 in indexes:
            ret.append(g * p)
        if 2 in indexes:
            ret.append(g * (1.0 - p))
        return tuple(ret)


def linear_interpolate(p, x, y):
    """Elementwise linear interpolation: :math:`z = p x + (1 - p) y`.

    Args:
        p (Variable or array): weights of ``x``, float16/32/64.
        x (Variable or array): the values at ``p = 1``, of the shape and
            dtype of ``p``.
        y (Variable or array): the values at ``p = 0``, of the shape and
            dtype of ``p``.

    Returns:
        Variable of the shape and dtype of ``p``.
    """
    return LinearInterpolate().apply((p, x, y))[0]
