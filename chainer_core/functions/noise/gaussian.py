"""gaussian: a sample of a normal distribution, differentiable in its
parameters (the reparameterization trick)."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.noise import _util as _noise
from chainer_core.functions.normalization import _util
from chainer_core.utils import type_check


@kernels.declare('gaussian')
def _gaussian(xp, mean, ln_var, eps):
    """(y, eps): y = mean + exp(ln_var / 2) * eps; without eps, one is drawn
    from the standard normal distribution (shape and dtype of mean)."""
    if eps is None:
        eps = xp.asarray(_noise.random_module(xp).standard_normal(
            mean.shape)).astype(mean.dtype, copy=False)
    ln_var_w = _util.wide(ln_var)
    y = _util.wide(mean) + xp.exp(ln_var_w * 0.5) * eps
    return y.astype(mean.dtype, copy=False), eps


class Gaussian(function_node.FunctionNode):
    """``mean + exp(ln_var / 2) * eps`` for a drawn or given ``eps``."""

    def __init__(self, eps=None):
        self.eps = getattr(eps, 'array', eps)

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('mean', 'ln_var'))
        mean_type, ln_var_type = in_types
        type_check.expect(
            mean_type.dtype.kind == 'f',
            ln_var_type.dtype == mean_type.dtype,
            ln_var_type.shape == mean_type.shape,
        )
        if self.eps is not None:
            type_check.expect(mean_type.shape == type_check.make_variable(
                self.eps.shape, 'eps.shape'))

    def forward(self, inputs):
        mean, ln_var = inputs
        eps = self.eps
        if eps is not None and eps.dtype != mean.dtype:
            eps = eps.astype(mean.dtype)
        y, self.eps = kernels.lookup('gaussian', mean)(mean, ln_var, eps)
        self.retain_inputs((1,))
        return y,

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.exponential import exp
        ln_var, = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(gy)
            else:
                ret.append(gy * exp(ln_var * 0.5) * (self.eps * 0.5))
        return tuple(ret)


def gaussian(mean, ln_var, **kwargs):
    """gaussian(mean, ln_var, *, eps=None, return_eps=False)

    A sample of :math:`N(\\mu, \\sigma^2)` with :math:`\\mu` = ``mean`` and
    :math:`\\log \\sigma^2` = ``ln_var``:

    .. math:: y = \\mu + e^{\\ln\\sigma^2 / 2} \\epsilon,
        \\quad \\epsilon \\sim N(0, 1)

    The noise :math:`\\epsilon` is drawn (from ``numpy.random`` for NumPy
    arrays) in training and test mode alike; the result is differentiable
    in ``mean`` and ``ln_var`` for that noise, at any order.

    Args:
        mean (Variable or array): the mean, float16/32/64.
        ln_var (Variable or array): the log of the variance, of the shape
            and dtype of ``mean``.
        eps (array or None): the standard normal noise to use instead of
            drawing it, of the shape of ``mean``.
        return_eps (bool): also return the noise used.

    Returns:
        Variable of the shape and dtype of ``mean``, or ``(y, eps)`` with
        ``return_eps``.
    """
    eps, return_eps = _util.parse_kwargs(
        'gaussian', kwargs, ('eps', None), ('return_eps', False))
    node = Gaussian(eps)
    y = node.apply((mean, ln_var))[0]
    if return_eps:
        return y, node.eps
    return y
