"""sigmoid: the logistic function."""
from chainer_core._runtime import graphs, kernels, rules
from chainer_core import function_node
from chainer_core.utils import type_check
from chainer_core.utils.array import one_minus


@kernels.declare('sigmoid')
def _sigmoid(xp, x):
    """y = 1 / (1 + exp(-x)), computed without overflow."""
    half = x.dtype.type(0.5)
    return xp.tanh(x * half) * half + half


@kernels.declare('sigmoid_grad')
def _sigmoid_grad(xp, y, gy):
    """gx = gy * y * (1 - y) (y is sigmoid's output)."""
    return gy * y * one_minus(y)


class Sigmoid(function_node.FunctionNode):
    """Logistic sigmoid."""

    graph_kernel = graphs.declare(
        'sigmoid', (), '1 / (1 + exp(-x)), x of a float dtype.',
        checks_inputs=True, derivative='gx0 = sigmoid_grad(y0, gy0)')

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('sigmoid', x)(x),


class SigmoidGrad(function_node.FunctionNode):
    """``gx = gy * y * (1 - y)`` as a differentiable function of y and gy."""

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        y, gy = inputs
        return kernels.lookup('sigmoid_grad', y)(y, gy),

    def backward(self, indexes, grad_outputs):
        y, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(ggx * gy * (1 - 2 * y))
        if 1 in indexes:
            ret.append(ggx * y * (1 - y))
        return tuple(ret)


@rules.kernel('sigmoid_grad', ('y', 'gy'))
def _sigmoid_grad_rule(y, gy):
    """The gradient of sigmoid given its output y: gy y (1 - y)."""
    return SigmoidGrad().apply((y, gy))[0]


def sigmoid(x):
    """Elementwise sigmoid: :math:`y = 1 / (1 + e^{-x})`.

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return Sigmoid().apply((x,))[0]
