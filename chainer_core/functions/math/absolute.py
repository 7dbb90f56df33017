"""absolute: the elementwise absolute value (``abs(x)`` of a Variable)."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math._util import check_unary_float


@kernels.declare('absolute')
def _absolute(xp, x):
    """y = |x|."""
    return xp.absolute(x)


@kernels.declare('absolute_grad')
def _absolute_grad(xp, x, gy):
    """gx = sign(x) * gy (0 where x is 0)."""
    return xp.sign(x) * gy


class Absolute(function_node.FunctionNode):
    """Elementwise absolute value."""

    @property
    def label(self):
        # Chainer's label (error messages and graph dumps show it).
        return '|_|'

    check_type_forward = staticmethod(check_unary_float)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return kernels.lookup('absolute', x)(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return AbsoluteGrad(x.array).apply(grad_outputs)


class AbsoluteGrad(function_node.FunctionNode):
    """``gx = sign(x) gy`` for a fixed ``x``: linear in ``gy``, so its own
    gradient is itself."""

    def __init__(self, x):
        self.x = x

    def forward(self, inputs):
        gy, = inputs
        return kernels.lookup('absolute_grad', gy)(self.x, gy),

    def backward(self, indexes, grad_outputs):
        return AbsoluteGrad(self.x).apply(grad_outputs)


def absolute(self):
    """Elementwise absolute value: :math:`y = |x|`.

    The gradient at ``x = 0`` is taken to be 0. The argument is named
    ``self`` as in Chainer, where this function is also
    ``Variable.__abs__``.

    Args:
        self (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of the input.
    """
    return Absolute().apply((self,))[0]
