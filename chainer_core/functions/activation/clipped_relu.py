"""clipped_relu and relu6: a rectifier capped at an upper bound."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.activation import _params
from chainer_core.utils import type_check


@kernels.declare('clipped_relu')
def _clipped_relu(xp, x, z):
    """y = min(max(x, 0), z)."""
    return xp.minimum(xp.maximum(x, x.dtype.type(0)), x.dtype.type(z))


@kernels.declare('clipped_relu_grad')
def _clipped_relu_grad(xp, x, gy, z):
    """gx = gy where 0 < x < z, 0 elsewhere (x is the input)."""
    return gy * ((x > 0) & (x < x.dtype.type(z)))


class ClippedReLU(function_node.FunctionNode):
    """Rectifier clipped at ``z``."""

    def __init__(self, z):
        self.cap = z

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return kernels.lookup('clipped_relu', x)(x, self.cap),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return ClippedReLUGrad(x.array, self.cap).apply(grad_outputs)


class ClippedReLUGrad(function_node.FunctionNode):
    """Gradient of clipped_relu at a fixed input; linear in ``gy``."""

    def __init__(self, x, z):
        self.x = x
        self.cap = z

    def forward(self, inputs):
        gy, = inputs
        return kernels.lookup('clipped_relu_grad', gy)(self.x, gy, self.cap),

    def backward(self, indexes, grad_outputs):
        return ClippedReLUGrad(self.x, self.cap).apply(grad_outputs)


def clipped_relu(x, z=20.0):
    """Clipped rectified linear unit: :math:`y = \\min(\\max(0, x), z)`.

    The gradient is passed where :math:`0 < x < z` and is zero elsewhere,
    the end points included.

    Args:
        x (Variable or array): input of any shape, float16/32/64.
        z (float): the cap, positive.

    Returns:
        Variable: output of the shape and dtype of ``x``.
    """
    z = _params.real(z, 'clipped_relu', 'z')
    if not z > 0:
        raise ValueError('clipped_relu: z must be positive, got {!r}'.format(
            z))
    return ClippedReLU(z).apply((x,))[0]


def relu6(x):
    """Rectified linear unit capped at 6: :math:`y = \\min(\\max(0, x), 6)`.

    The same as ``clipped_relu(x, 6.0)``.

    Args:
        x (Variable or array): input of any shape, float16/32/64.

    Returns:
        Variable: output of the shape and dtype of ``x``.
    """
    return ClippedReLU(6.0).apply((x,))[0]
