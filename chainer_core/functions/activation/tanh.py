"""tanh: the hyperbolic tangent."""
from chainer_core._runtime import graphs, kernels, rules
from chainer_core import function_node
from chainer_core.utils import type_check
from chainer_core.utils.array import one_minus


@kernels.declare('tanh')
def _tanh(xp, x):
    """y = tanh(x)."""
    return xp.tanh(x)


@kernels.declare('tanh_grad')
def _tanh_grad(xp, y, gy):
    """gx = gy * (1 - y * y) (y is tanh's output)."""
    return gy * one_minus(y * y)


class Tanh(function_node.FunctionNode):
    """Hyperbolic tangent."""

    graph_kernel = graphs.declare('tanh', (), 'tanh(x), x of a float '
                                  'dtype.', checks_inputs=True,
                                  derivative='gx0 = tanh_grad(y0, gy0)')

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('tanh', x)(x),


class TanhGrad(function_node.FunctionNode):
    """``gx = gy * (1 - y^2)`` as a differentiable function of y and gy."""

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        y, gy = inputs
        return kernels.lookup('tanh_grad', y)(y, gy),

    def backward(self, indexes, grad_outputs):
        y, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(ggx * gy * y * -2.0)
        if 1 in indexes:
            ret.append(ggx * (1 - y * y))
        return tuple(ret)


@rules.kernel('tanh_grad', ('y', 'gy'))
def _tanh_grad_rule(y, gy):
    """The gradient of tanh given its output y: gy (1 - y^2)."""
    return TanhGrad().apply((y, gy))[0]


def tanh(x):
    """Elementwise hyperbolic tangent: :math:`y = \\tanh x`.

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return Tanh().apply((x,))[0]
