"""squared_difference: the elementwise square of a difference."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math._util import check_float_inputs, sum_to_shape
from chainer_core.utils import type_check


@kernels.declare('squared_difference')
def _squared_difference(xp, x1, x2):
    """y = (x1 - x2) ** 2, with broadcasting."""
    d = x1 - x2
    return d * d


class SquaredDifference(function_node.FunctionNode):
    """Elementwise :math:`(x_1 - x_2)^2` with broadcasting."""

    def check_type_forward(self, in_types):
        check_float_inputs(in_types, ('x1', 'x2'))
        type_check.expect_broadcast_shapes(in_types[0].shape,
                                           in_types[1].shape)

    def forward(self, inputs):
        x1, x2 = inputs
        self.retain_inputs((0, 1))
        return kernels.lookup('squared_difference', x1)(x1, x2),

    def backward(self, indexes, grad_outputs):
        x1, x2 = self.get_retained_inputs()
        g = grad_outputs[0] * (x1 - x2) * 2.0
        ret = []
        if 0 in indexes:
            ret.append(sum_to_shape(g, x1.shape))
        if 1 in indexes:
            ret.append(sum_to_shape(-g, x2.shape))
        return tuple(ret)


def squared_difference(x1, x2):
    """Elementwise squared difference: :math:`y = (x_1 - x_2)^2`.

    Args:
        x1 (Variable or array): input, float16/32/64.
        x2 (Variable or array): input of the dtype of ``x1``; the two
            broadcast together.

    Returns:
        Variable of the broadcast shape, of the dtype of the inputs.
    """
    return SquaredDifference().apply((x1, x2))[0]
