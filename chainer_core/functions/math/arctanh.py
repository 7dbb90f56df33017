"""arctanh: the inverse hyperbolic tangent."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math._util import check_unary_float


@kernels.declare('arctanh')
def _arctanh(xp, x):
    """y = arctanh(x) = log((1 + x) / (1 - x)) / 2; +-inf at +-1, NaN
    outside [-1, 1]."""
    return xp.arctanh(x)


class Arctanh(function_node.FunctionNode):
    """Elementwise inverse hyperbolic tangent."""

    check_type_forward = staticmethod(check_unary_float)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return kernels.lookup('arctanh', x)(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] / (1 - x * x),


def arctanh(x):
    """Elementwise inverse hyperbolic tangent:
    :math:`y = \\tanh^{-1} x = \\frac{1}{2} \\log \\frac{1 + x}{1 - x}`.

    Defined on :math:`(-1, 1)`; its derivative is :math:`1 / (1 - x^2)`.

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> F.arctanh(np.array([0.0, 0.5])).array
        array([0.        , 0.54930614])
    """
    return Arctanh().apply((x,))[0]
