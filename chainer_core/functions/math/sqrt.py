"""sqrt and rsqrt: the square root and its reciprocal."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math._util import check_unary_float


@kernels.declare('sqrt')
def _sqrt(xp, x):
    """y = square root of x (NaN where x < 0)."""
    return xp.sqrt(x)


@kernels.declare('rsqrt')
def _rsqrt(xp, x):
    """y = 1 / square root of x."""
    return xp.reciprocal(xp.sqrt(x))


class Sqrt(function_node.FunctionNode):
    """Elementwise square root."""

    check_type_forward = staticmethod(check_unary_float)

    def forward(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        return kernels.lookup('sqrt', x)(x),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return grad_outputs[0] / (y * 2.0),


class Rsqrt(function_node.FunctionNode):
    """Elementwise reciprocal of the square root."""

    check_type_forward = staticmethod(check_unary_float)

    def forward(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        return kernels.lookup('rsqrt', x)(x),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        # d/dx x^(-1/2) = -x^(-3/2) / 2 = -y^3 / 2.
        return grad_outputs[0] * (y * y * y) * -0.5,


def sqrt(x):
    """Elementwise square root: :math:`y = \\sqrt{x}`.

    Negative inputs give NaN, as in NumPy.

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return Sqrt().apply((x,))[0]


def rsqrt(x):
    """Elementwise reciprocal of the square root: :math:`y = 1 / \\sqrt{x}`.

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.

    .. seealso:: :func:`sqrt`
    """
    return Rsqrt().apply((x,))[0]
