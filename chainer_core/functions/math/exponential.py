"""exp and log."""
from backend_api import kernels
from chainer_core import function_node
from chainer_core.utils import type_check


@kernels.declare('exp')
def _exp(xp, x):
    """y = e ** x."""
    return xp.exp(x)


@kernels.declare('log')
def _log(xp, x):
    """y = natural logarithm of x."""
    return xp.log(x)


def _check_float(in_types):
    type_check.expect(in_types.size() == 1)
    type_check.argname(in_types, ('x',))
    type_check.expect(in_types[0].dtype.kind == 'f')


class Exp(function_node.FunctionNode):
    """Elementwise exponential."""

    check_type_forward = staticmethod(_check_float)

    def forward(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        return kernels.lookup('exp', x)(x),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return grad_outputs[0] * y,


class Log(function_node.FunctionNode):
    """Elementwise natural logarithm."""

    check_type_forward = staticmethod(_check_float)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return kernels.lookup('log', x)(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] / x,


def exp(x):
    """Elementwise exponential: :math:`y = e^x`.

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return Exp().apply((x,))[0]


def log(x):
    """Elementwise natural logarithm: :math:`y = \\ln x`.

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return Log().apply((x,))[0]
