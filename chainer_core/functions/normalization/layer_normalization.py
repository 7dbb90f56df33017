"""layer_normalization: normalize each sample over its units."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.normalization import _standardize as _std
from chainer_core.functions.normalization import _util
from chainer_core.utils import type_check


@kernels.declare('layer_normalization')
def _layer_normalization(xp, x, gamma, beta, eps):
    """(y, mean, inv_std): each row of the 2-D x standardized with its mean
    and biased variance, then y = gamma * xhat + beta (gamma, beta of shape
    (units,)); mean and inv_std of shape (batch, 1), in float32 at least."""
    xw = _util.wide(x)
    mean = xw.mean(axis=1, keepdims=True)
    xc = xw - mean
    inv_std = 1 / xp.sqrt((xc * xc).mean(axis=1, keepdims=True) + eps)
    xc *= inv_std
    xc *= gamma
    xc += beta
    return xc.astype(x.dtype, copy=False), mean, inv_std


class LayerNormalization(function_node.FunctionNode):
    """Layer normalization of a 2-D input."""

    axis = (1,)

    def __init__(self, eps=1e-5):
        self.eps = _util.check_number('layer_normalization', 'eps', eps,
                                      low=0)

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 3)
        type_check.argname(in_types, ('x', 'gamma', 'beta'))
        x_type, gamma_type, beta_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 2,
            gamma_type.ndim == 1,
            beta_type.ndim == 1,
            gamma_type.dtype == x_type.dtype,
            beta_type.dtype == x_type.dtype,
            gamma_type.shape[0] == x_type.shape[1],
            beta_type.shape == gamma_type.shape,
        )

    def forward(self, inputs):
        x, gamma, beta = inputs
        y, mean, inv_std = kernels.lookup('layer_normalization', x)(
            x, gamma, beta, self.eps)
        self.stats = mean, inv_std
        self.retain_inputs((0, 1))
        return y,

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.sum import sum as sum_
        x, gamma = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(_std.apply_m(self, x, gy * gamma))
            elif i == 1:
                xhat = _std.standardized(self, x)[0]
                ret.append(sum_(gy * xhat, axis=0))
            else:
                ret.append(sum_(gy, axis=0))
        return tuple(ret)


def layer_normalization(x, gamma, beta, eps=1e-5):
    """Layer normalization: standardize each sample over its units, then
    scale and shift.

    .. math::
        y_{ij} = \\gamma_j \\frac{x_{ij} - \\mu_i}{\\sqrt{\\sigma_i^2 +
        \\epsilon}} + \\beta_j

    with :math:`\\mu_i` and :math:`\\sigma_i^2` the mean and (biased)
    variance of row ``i``. Differentiable twice (and more).

    Args:
        x (Variable or array): input of shape ``(batch, units)``,
            float16/32/64.
        gamma (Variable or array): scale of shape ``(units,)``, the dtype of
            ``x``.
        beta (Variable or array): shift of shape ``(units,)``.
        eps (float): added to the variance, for stability.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return LayerNormalization(eps).apply((x, gamma, beta))[0]
