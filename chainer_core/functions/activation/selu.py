"""selu: scaled exponential linear unit."""
from chainer_core._runtime import kernels
from chainer_core.functions.activation import _params
from chainer_core.functions.activation.elu import ELU, elu_unscaled

_ALPHA = 1.6732632423543772848170429916717
_SCALE = 1.0507009873554804934193349852946


@kernels.declare('selu')
def _selu(xp, x, alpha, scale):
    """y = scale * x where x >= 0, scale * alpha * (exp(x) - 1) elsewhere."""
    return elu_unscaled(xp, x, alpha) * x.dtype.type(scale)


class SELU(ELU):
    """Scaled exponential linear unit."""

    def __init__(self, alpha=_ALPHA, scale=_SCALE):
        self.alpha = alpha
        self.scale = scale

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return kernels.lookup('selu', x)(x, self.alpha, self.scale),


def selu(x, alpha=_ALPHA, scale=_SCALE):
    """Scaled exponential linear unit.

    .. math:: y = \\lambda \\begin{cases} x & (x \\ge 0) \\\\
                                 \\alpha (e^x - 1) & (x < 0) \\end{cases}

    With the default :math:`\\alpha \\approx 1.6733` and
    :math:`\\lambda \\approx 1.0507` the activations of a suitably initialised
    network keep zero mean and unit variance.

    Args:
        x (Variable or array): input of any shape, float16/32/64.
        alpha (float): :math:`\\alpha`.
        scale (float): :math:`\\lambda`.

    Returns:
        Variable: output of the shape and dtype of ``x``.
    """
    alpha = _params.real(alpha, 'selu', 'alpha')
    scale = _params.real(scale, 'selu', 'scale')
    return SELU(alpha, scale).apply((x,))[0]
