"""relu: rectified linear unit."""
from chainer_core._runtime import graphs, kernels, rules
from chainer_core import function_node
from chainer_core.utils import type_check


@kernels.declare('relu')
def _relu(xp, x):
    """y = max(x, 0)."""
    return xp.maximum(x, x.dtype.type(0))


@kernels.declare('relu_grad')
def _relu_grad(xp, y, gy):
    """gx = gy where y > 0, else 0 (y is relu's output)."""
    return gy * (y > 0)


class ReLU(function_node.FunctionNode):
    """Rectified linear unit."""

    graph_kernel = graphs.declare('relu', (), 'max(x, 0), x of a float '
                                  'dtype.', checks_inputs=True,
                                  derivative='gx0 = relu_grad(y0, gy0)')

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('relu', x)(x),


class ReLUGrad(function_node.FunctionNode):
    """Gradient of relu given its output; linear in ``gy``."""

    def __init__(self, y):
        self.y = y

    def forward(self, inputs):
        gy, = inputs
        return kernels.lookup('relu_grad', gy)(self.y, gy),

    def backward(self, indexes, grad_outputs):
        return ReLUGrad(self.y).apply(grad_outputs)


@rules.kernel('relu_grad', ('y', 'gy'))
def _relu_grad_rule(y, gy):
    """gy where y > 0, else 0 (y is relu's output); differentiable in gy
    only."""
    return ReLUGrad(y.array).apply((gy,))[0]


def relu(x):
    """Rectified linear unit: :math:`y = \\max(0, x)`.

    Args:
        x (Variable or array): input of any shape, float16/32/64.

    Returns:
        Variable: output of the shape and dtype of ``x``.
    """
    return ReLU().apply((x,))[0]
