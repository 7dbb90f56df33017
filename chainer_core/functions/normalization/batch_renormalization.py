"""batch_renormalization: batch normalization corrected towards the running
statistics."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.normalization import _util
from chainer_core.functions.normalization.batch_normalization import (
    BatchNormalizationGrad, fixed_batch_normalization)
from chainer_core.utils import type_check


@kernels.declare('batch_renormalization')
def _batch_renormalization(xp, x, gamma, beta, running_mean, running_var,
                           rmax, dmax, axis, eps):
    """(y, mean, var, inv_std, r, d): y = gamma * (xhat * r + d) + beta,
    xhat standardized with the batch's mean and biased var over axis,
    r = clip(sqrt(var + eps) / sqrt(running_var + eps), 1 / rmax, rmax) and
    d = clip((mean - running_mean) / sqrt(running_var + eps), -dmax, dmax).
    Every per-channel array comes and goes in keepdims shape; the
    statistics, r and d in float32 at least."""
    xw = _util.wide(x)
    mean = xw.mean(axis=axis, keepdims=True)
    xc = xw - mean
    var = (xc * xc).mean(axis=axis, keepdims=True)
    std = xp.sqrt(var + eps)
    running_std = xp.sqrt(_util.wide(running_var) + eps)
    r = xp.clip(std / running_std, 1.0 / rmax, rmax)
    d = xp.clip((mean - running_mean) / running_std, -dmax, dmax)
    xc *= r * gamma / std
    xc += gamma * d + beta
    return xc.astype(x.dtype, copy=False), mean, var, 1 / std, r, d


class BatchRenormalization(function_node.FunctionNode):
    """Batch renormalization; ``r`` and ``d`` are constants in backward."""

    def __init__(self, eps, mean, var, decay, rmax, dmax, update_statistics):
        op = 'batch_renormalization'
        self.eps = _util.check_number(op, 'eps', eps, low=0)
        self.decay = _util.check_number(op, 'decay', decay, low=0, high=1)
        self.rmax = _util.check_number(op, 'rmax', rmax, low=1)
        self.dmax = _util.check_number(op, 'dmax', dmax, low=0)
        self.running_mean = _util.running_array(mean)
        self.running_var = _util.running_array(var)
        self.update_statistics = update_statistics

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 3)
        type_check.argname(in_types, ('x', 'gamma', 'beta'))
        x_type, gamma_type, beta_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            gamma_type.dtype == x_type.dtype,
            beta_type.dtype == x_type.dtype,
            beta_type.shape == gamma_type.shape,
        )
        _util.check_channel_shape(x_type, gamma_type, None)

    def forward(self, inputs):
        x, gamma, beta = inputs
        _util.check_running_shapes(
            'batch_renormalization', gamma.shape,
            running_mean=self.running_mean, running_var=self.running_var)
        self.reduced = axis = _util.reduced_axes(x.ndim, gamma.ndim, None)
        shape = _util.stat_shape(x.shape, axis)
        y, mean, var, inv_std, r, d = kernels.lookup(
            'batch_renormalization', x)(
            x, gamma.reshape(shape), beta.reshape(shape),
            self.running_mean.reshape(shape), self.running_var.reshape(shape),
            self.rmax, self.dmax, axis, self.eps)
        if self.update_statistics:
            m = x.size // gamma.size
            kernels.lookup('batch_normalization_update_statistics', x)(
                self.running_mean, self.running_var,
                mean.reshape(gamma.shape), var.reshape(gamma.shape),
                self.decay, m / max(m - 1.0, 1.0))
        self.stats = mean, inv_std
        self.r = r.reshape(gamma.shape).astype(x.dtype, copy=False)
        self.d = d.reshape(gamma.shape).astype(x.dtype, copy=False)
        self.retain_inputs((0, 1))
        return y,

    def backward(self, indexes, grad_outputs):
        # y is batch normalization with scale gamma * r and shift
        # gamma * d + beta, r and d held fixed.
        x, gamma = self.get_retained_inputs()
        gy, = grad_outputs
        gx, g_scale, g_shift = BatchNormalizationGrad(
            self.reduced, self.eps, self.stats).apply((x, gamma * self.r, gy))
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(gx)
            elif i == 1:
                ret.append(g_scale * self.r + g_shift * self.d)
            else:
                ret.append(g_shift)
        return tuple(ret)


def batch_renormalization(x, gamma, beta, rmax, dmax, eps=2e-5,
                          running_mean=None, running_var=None, decay=0.9,
                          update_statistics=False):
    """Batch renormalization: batch normalization whose output is corrected
    towards what the running statistics would give.

    .. math::
        \\hat x = \\frac{x - \\mu_B}{\\sigma_B}, \\quad
        y = \\gamma (r \\hat x + d) + \\beta,

    with :math:`\\sigma_B = \\sqrt{\\mathrm{var}_B + \\epsilon}`,
    :math:`\\sigma = \\sqrt{\\mathrm{running\\_var} + \\epsilon}`,
    :math:`r = \\mathrm{clip}(\\sigma_B / \\sigma, 1/r_{max}, r_{max})` and
    :math:`d = \\mathrm{clip}((\\mu_B - \\mathrm{running\\_mean}) / \\sigma,
    -d_{max}, d_{max})`. ``r`` and ``d`` are treated as constants when
    differentiating. The statistics are taken over the first axis and the
    axes after the channel axes (the shape of ``gamma``), as in
    :func:`batch_normalization`.

    Args:
        x (Variable or array): input, float16/32/64.
        gamma, beta (Variable or array): scale and shift, of the channel
            shape ``x.shape[1:1 + gamma.ndim]`` and the dtype of ``x``.
        rmax (float): bound of ``r`` (at least 1).
        dmax (float): bound of ``|d|`` (at least 0).
        eps (float): added to the variances, for stability.
        running_mean, running_var (array): the running statistics, of the
            shape of ``gamma``; required.
        decay (float): the decay rate of the running averages.
        update_statistics (bool): update ``running_mean`` and ``running_var``
            in place as :func:`batch_normalization` does (the variance with
            Bessel's correction); by default they are left as they are.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    if running_mean is None:
        raise TypeError('batch_renormalization: running_mean is required')
    if running_var is None:
        raise TypeError('batch_renormalization: running_var is required')
    return BatchRenormalization(eps, running_mean, running_var, decay, rmax,
                                dmax, update_statistics).apply(
        (x, gamma, beta))[0]


def fixed_batch_renormalization(x, gamma, beta, mean, var, eps=2e-5):
    """Batch renormalization at inference: with the running statistics in
    place of the batch's, ``r`` is 1 and ``d`` is 0, so it is
    :func:`fixed_batch_normalization`.

    .. math::
        y = \\gamma \\frac{x - \\mathrm{mean}}{\\sqrt{\\mathrm{var} +
        \\epsilon}} + \\beta

    Args:
        x (Variable or array): input, float16/32/64.
        gamma, beta (Variable or array): scale and shift, of the channel
            shape ``x.shape[1:1 + gamma.ndim]``.
        mean, var (Variable or array): the statistics to normalize with,
            of the shape of ``gamma``.
        eps (float): added to ``var``, for stability.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return fixed_batch_normalization(x, gamma, beta, mean, var, eps)
