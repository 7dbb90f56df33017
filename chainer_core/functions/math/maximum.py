"""maximum: the elementwise larger of two arrays."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math._util import check_float_inputs, sum_to_shape
from chainer_core.utils import type_check


@kernels.declare('maximum')
def _maximum(xp, x1, x2):
    """y = the larger of x1 and x2, with broadcasting (NaN propagates)."""
    return xp.maximum(x1, x2)


@kernels.declare('maximum_mask')
def _maximum_mask(xp, x1, x2):
    """1 where x1 >= x2 (x1 is the maximum), else 0, in the dtype of x1
    and of the broadcast shape."""
    return xp.asarray(x1 >= x2, dtype=x1.dtype)


class Maximum(function_node.FunctionNode):
    """Elementwise maximum with broadcasting (Minimum differs only in its
    kernels)."""

    _kernel = 'maximum'
    _mask_kernel = 'maximum_mask'

    def check_type_forward(self, in_types):
        check_float_inputs(in_types, ('x1', 'x2'))
        type_check.expect_broadcast_shapes(in_types[0].shape,
                                           in_types[1].shape)

    def forward(self, inputs):
        x1, x2 = inputs
        self.retain_inputs((0, 1))
        return kernels.lookup(self._kernel, x1)(x1, x2),

    def backward(self, indexes, grad_outputs):
        x1, x2 = self.get_retained_inputs()
        gy, = grad_outputs
        # Ties send the gradient to x1, as in Chainer.
        mask = kernels.lookup(self._mask_kernel, x1.array)(x1.array,
                                                           x2.array)
        ret = []
        if 0 in indexes:
            ret.append(sum_to_shape(gy * mask, x1.shape))
        if 1 in indexes:
            ret.append(sum_to_shape(gy * (1 - mask), x2.shape))
        return tuple(ret)


def maximum(x1, x2):
    """Elementwise maximum: :math:`y = \\max(x_1, x_2)`.

    The gradient goes to the larger input; where the two are equal it goes
    to ``x1``.

    Args:
        x1 (Variable or array): input, float16/32/64.
        x2 (Variable or array): input of the dtype of ``x1``; the two
            broadcast together.

    Returns:
        Variable of the broadcast shape, of the dtype of the inputs.
    """
    return Maximum().apply((x1, x2))[0]
