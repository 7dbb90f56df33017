"""hard_sigmoid: a piecewise linear approximation of the sigmoid."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.utils import type_check


@kernels.declare('hard_sigmoid')
def _hard_sigmoid(xp, x):
    """y = clip(0.2 * x + 0.5, 0, 1)."""
    dtype = x.dtype.type
    return xp.clip(x * dtype(0.2) + dtype(0.5), dtype(0), dtype(1))


@kernels.declare('hard_sigmoid_grad')
def _hard_sigmoid_grad(xp, x, gy):
    """gx = 0.2 * gy where -2.5 < x < 2.5, 0 elsewhere (x is the input)."""
    dtype = gy.dtype.type
    return (gy * dtype(0.2)) * ((x > dtype(-2.5)) & (x < dtype(2.5)))


class HardSigmoid(function_node.FunctionNode):
    """Hard sigmoid."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return kernels.lookup('hard_sigmoid', x)(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return HardSigmoidGrad(x.array).apply(grad_outputs)


class HardSigmoidGrad(function_node.FunctionNode):
    """Gradient of hard_sigmoid at a fixed input; linear in ``gy``."""

    def __init__(self, x):
        self.x = x

    def forward(self, inputs):
        gy, = inputs
        return kernels.lookup('hard_sigmoid_grad', gy)(self.x, gy),

    def backward(self, indexes, grad_outputs):
        return HardSigmoidGrad(self.x).apply(grad_outputs)


def hard_sigmoid(x):
    """Hard sigmoid: :math:`y = \\min(1, \\max(0, 0.2 x + 0.5))`.

    The gradient is 0.2 on :math:`-2.5 < x < 2.5` and zero elsewhere, the
    end points included.

    Args:
        x (Variable or array): input of any shape, float16/32/64.

    Returns:
        Variable: output of the shape and dtype of ``x``.
    """
    return HardSigmoid().apply((x,))[0]
