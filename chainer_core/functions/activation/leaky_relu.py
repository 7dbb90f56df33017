"""leaky_relu: a rectifier with a small slope for negative inputs."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.activation import _params, _select
from chainer_core.utils import type_check


@kernels.declare('leaky_relu')
def _leaky_relu(xp, x, slope):
    """y = x where x >= 0, slope * x elsewhere."""
    # The larger (for slope <= 1) or smaller of x and slope * x is exactly
    # that, without a branch per element.
    sx = x * x.dtype.type(slope)
    return xp.maximum(x, sx) if slope <= 1 else xp.minimum(x, sx)


@kernels.declare('leaky_relu_grad')
def _leaky_relu_grad(xp, x, gy, slope):
    """gx = slope * gy where x < 0, gy elsewhere (x is the input).

    NaN is not below 0, so its gradient is gy, as in Chainer.
    """
    slope_ = gy.dtype.type(slope)
    keep = xp.logical_not(x < 0)
    if 0 <= slope <= 1:
        # max(keep, slope) is 1 where kept and slope elsewhere.
        return gy * xp.maximum(keep, slope_)
    return _select.select(keep, gy, gy * slope_)


class LeakyReLU(function_node.FunctionNode):
    """Leaky rectifier."""

    def __init__(self, slope=0.2):
        self.slope = slope

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return kernels.lookup('leaky_relu', x)(x, self.slope),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return LeakyReLUGrad(x.array, self.slope).apply(grad_outputs)


class LeakyReLUGrad(function_node.FunctionNode):
    """Gradient of leaky_relu at a fixed input; linear in ``gy``."""

    def __init__(self, x, slope):
        self.x = x
        self.slope = slope

    def forward(self, inputs):
        gy, = inputs
        return kernels.lookup('leaky_relu_grad', gy)(self.x, gy, self.slope),

    def backward(self, indexes, grad_outputs):
        return LeakyReLUGrad(self.x, self.slope).apply(grad_outputs)


def leaky_relu(x, slope=0.2):
    """Leaky rectified linear unit.

    .. math:: y = \\begin{cases} x & (x \\ge 0) \\\\
                                 a x & (x < 0) \\end{cases}

    where :math:`a` is ``slope``.

    Args:
        x (Variable or array): input of any shape, float16/32/64.
        slope (float): the slope :math:`a` for negative inputs.

    Returns:
        Variable: output of the shape and dtype of ``x``.
    """
    slope = _params.real(slope, 'leaky_relu', 'slope')
    return LeakyReLU(slope).apply((x,))[0]
