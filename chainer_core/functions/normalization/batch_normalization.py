"""batch_normalization and fixed_batch_normalization.

``gamma`` and ``beta`` (and the statistics given to the fixed form, of
their dtype) may have another float dtype than ``x``: the normalization is
computed in the widest, the output has ``x``'s dtype and each gradient its
input's.
"""
import warnings

import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math.matmul import as_dtype, promote
from chainer_core.functions.normalization import _standardize as _std
from chainer_core.functions.normalization import _util
from chainer_core.utils import type_check


@kernels.declare('batch_normalization')
def _batch_normalization(xp, x, gamma, beta, axis, eps):
    """(y, mean, var, inv_std): y = gamma * (x - mean) * inv_std + beta with
    the mean and biased variance of x over axis (a tuple); gamma and beta
    come in keepdims shape, the statistics are returned in it, in float32
    at least."""
    xw = _util.wide(x)
    mean = xw.mean(axis=axis, keepdims=True)
    xc = xw - mean
    var = (xc * xc).mean(axis=axis, keepdims=True)
    inv_std = 1 / xp.sqrt(var + eps)
    xc *= inv_std * gamma
    xc += beta
    return xc.astype(x.dtype, copy=False), mean, var, inv_std


@kernels.declare('batch_normalization_grad')
def _batch_normalization_grad(xp, x, gamma, gy, mean, inv_std, axis):
    """(gx, ggamma, gbeta) of batch_normalization for the output gradient
    gy; gamma, mean and inv_std come in keepdims shape, ggamma and gbeta are
    returned in it."""
    xhat = (_util.wide(x) - mean) * inv_std
    gw = _util.wide(gy)
    m = x.size // mean.size
    gbeta = gw.sum(axis=axis, keepdims=True)
    ggamma = (gw * xhat).sum(axis=axis, keepdims=True)
    xhat *= ggamma / m
    gx = (gw - gbeta / m - xhat) * (gamma * inv_std)
    return (gx.astype(x.dtype, copy=False),
            ggamma.astype(gamma.dtype, copy=False),
            gbeta.astype(gamma.dtype, copy=False))


@kernels.declare('batch_normalization_update_statistics')
def _update_statistics(xp, running_mean, running_var, mean, var, decay,
                       adjust):
    """Update running_mean and running_var in place with the batch's mean
    and var (of their shape): r = decay * r + (1 - decay) * new, the
    variance scaled by adjust (Bessel's correction) first. Returns both."""
    running_mean *= decay
    running_mean += (1 - decay) * mean
    running_var *= decay
    running_var += ((1 - decay) * adjust) * var
    return running_mean, running_var


@kernels.declare('fixed_batch_normalization')
def _fixed_batch_normalization(xp, x, gamma, beta, mean, var, eps):
    """y = gamma * (x - mean) / sqrt(var + eps) + beta with given
    statistics; gamma, beta, mean and var come in keepdims shape."""
    xw = _util.wide(x)
    scale = gamma / xp.sqrt(_util.wide(var) + eps)
    y = (xw - mean) * scale
    y += beta
    return y.astype(x.dtype, copy=False)


def _warn_single(x, axis):
    if all(x.shape[i] == 1 for i in axis):
        if 0 in axis:
            warnings.warn(
                'batch_normalization received a batch of a single sample; '
                'its output is all zero (is config.train on while '
                'evaluating?)', UserWarning, stacklevel=4)
        else:
            warnings.warn(
                'batch_normalization received a batch whose reduced axes '
                'all have size 1; its output is all zero', UserWarning,
                stacklevel=4)


class BatchNormalization(function_node.FunctionNode):
    """Normalization with the statistics of the batch."""

    def __init__(self, eps=2e-5, mean=None, var=None, decay=0.9, axis=None):
        op = 'batch_normalization'
        self.eps = _util.check_number(op, 'eps', eps, low=0)
        self.decay = _util.check_number(op, 'decay', decay, low=0, high=1)
        if (mean is None) != (var is None):
            raise ValueError('{}: running_mean and running_var must be given '
                             'together'.format(op))
        self.running_mean = _util.running_array(mean)
        self.running_var = _util.running_array(var)
        self.axis = _util.parse_axis(op, axis)

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 3)
        type_check.argname(in_types, ('x', 'gamma', 'beta'))
        x_type, gamma_type, beta_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            gamma_type.dtype.kind == 'f',
            beta_type.dtype == gamma_type.dtype,
            beta_type.shape == gamma_type.shape,
        )
        _util.check_channel_shape(x_type, gamma_type, self.axis)

    def forward(self, inputs):
        x, gamma, beta = promote(*inputs)
        self.reduced = axis = _util.reduced_axes(x.ndim, gamma.ndim,
                                                 self.axis)
        _warn_single(x, axis)
        shape = _util.stat_shape(x.shape, axis)
        y, mean, var, inv_std = kernels.lookup('batch_normalization', x)(
            x, gamma.reshape(shape), beta.reshape(shape), axis, self.eps)
        self.stats = mean, inv_std
        if self.running_mean is not None:
            _util.check_running_shapes(
                'batch_normalization', gamma.shape,
                running_mean=self.running_mean, running_var=self.running_var)
            m = x.size // gamma.size
            kernels.lookup('batch_normalization_update_statistics', x)(
                self.running_mean, self.running_var,
                mean.reshape(gamma.shape), var.reshape(gamma.shape),
                self.decay, m / max(m - 1.0, 1.0))
        self.retain_inputs((0, 1))
        return y.astype(inputs[0].dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        x, gamma = self.get_retained_inputs()
        return BatchNormalizationGrad(self.reduced, self.eps,
                                      self.stats).apply(
            (x, gamma, grad_outputs[0]))


class BatchNormalizationGrad(function_node.FunctionNode):
    """``(x, gamma, gy) -> (gx, ggamma, gbeta)`` of batch normalization.

    ``gx = M_x(gamma gy)`` (see :mod:`._standardize`),
    ``ggamma = sum(gy xhat)``, ``gbeta = sum(gy)``; differentiable again.
    """

    def __init__(self, axis, eps, stats):
        self.axis = axis
        self.eps = eps
        self.stats = stats

    def forward(self, inputs):
        x, gamma, gy = promote(*inputs)
        mean, inv_std = self.stats
        shape = mean.shape
        gx, ggamma, gbeta = kernels.lookup('batch_normalization_grad', x)(
            x, gamma.reshape(shape), gy, mean, inv_std, self.axis)
        self.retain_inputs((0, 1, 2))
        self.retain_outputs((0,))
        x_dtype, gamma_dtype = inputs[0].dtype, inputs[1].dtype
        return (gx.astype(x_dtype, copy=False),
                ggamma.reshape(gamma.shape).astype(gamma_dtype, copy=False),
                gbeta.reshape(gamma.shape).astype(gamma_dtype, copy=False))

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.broadcast import broadcast_to
        from chainer_core.functions.array.reshape import reshape
        from chainer_core.functions.math.sum import sum as sum_
        x, gamma, gy = self.get_retained_inputs()
        gx, = self.get_retained_outputs()
        ggx, g_ggamma, g_gbeta = grad_outputs
        shape = self.stats[0].shape
        # gamma's terms meet x's: they are taken in x's dtype.
        g = reshape(as_dtype(gamma, x.dtype), shape)
        if g_ggamma is not None:
            g_ggamma = reshape(as_dtype(g_ggamma, x.dtype), shape)
        m_ggx = None if ggx is None else _std.apply_m(self, x, ggx)
        xhat_s = None
        if (0 in indexes and ggx is not None) or \
                (2 in indexes and g_ggamma is not None):
            xhat_s = _std.standardized(self, x)
        ret = []
        if 0 in indexes:
            extra = None if g_ggamma is None else g_ggamma * gy
            if ggx is not None:
                ret.append(_std.second_order_x(self, x, g * gy, ggx, gx,
                                               extra, xhat_s))
            elif extra is not None:
                ret.append(_std.apply_m(self, x, extra))
            else:
                ret.append(None)
        if 1 in indexes:
            ret.append(None if m_ggx is None else as_dtype(reshape(
                sum_(gy * m_ggx, axis=self.axis), gamma.shape), gamma.dtype))
        if 2 in indexes:
            g_gy = None
            if m_ggx is not None:
                g_gy = g * m_ggx
            if g_ggamma is not None:
                t = g_ggamma * xhat_s[0]
                g_gy = t if g_gy is None else g_gy + t
            if g_gbeta is not None:
                t = reshape(as_dtype(g_gbeta, x.dtype), shape)
                g_gy = broadcast_to(t, gy.shape) if g_gy is None \
                    else g_gy + t
            ret.append(g_gy)
        return tuple(ret)


class FixedBatchNormalization(function_node.FunctionNode):
    """Normalization with given statistics."""

    def __init__(self, eps=2e-5, axis=None):
        op = 'fixed_batch_normalization'
        self.eps = _util.check_number(op, 'eps', eps, low=0)
        self.axis = _util.parse_axis(op, axis)

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 5)
        type_check.argname(in_types, ('x', 'gamma', 'beta', 'mean', 'var'))
        x_type, gamma_type, beta_type, mean_type, var_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            gamma_type.dtype.kind == 'f',
            beta_type.dtype == gamma_type.dtype,
            mean_type.dtype == gamma_type.dtype,
            var_type.dtype == gamma_type.dtype,
            beta_type.shape == gamma_type.shape,
            mean_type.shape == gamma_type.shape,
            var_type.shape == gamma_type.shape,
        )
        _util.check_channel_shape(x_type, gamma_type, self.axis)

    def forward(self, inputs):
        x, gamma, beta, mean, var = promote(*inputs)
        self.reduced = axis = _util.reduced_axes(x.ndim, gamma.ndim,
                                                 self.axis)
        shape = _util.stat_shape(x.shape, axis)
        self.retain_inputs((0, 1, 3, 4))
        y = kernels.lookup('fixed_batch_normalization', x)(
            x, gamma.reshape(shape), beta.reshape(shape), mean.reshape(shape),
            var.reshape(shape), self.eps)
        return y.astype(inputs[0].dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.reshape import reshape
        from chainer_core.functions.math.sum import sum as sum_
        x, gamma, mean, var = self.get_retained_inputs()
        gy, = grad_outputs
        # In the dtype the forward computed in; each gradient is returned
        # in its input's.
        dtype = numpy.result_type(x.dtype, gamma.dtype)
        x, gamma, mean, var, gy = [as_dtype(v, dtype)
                                   for v in (x, gamma, mean, var, gy)]
        axis = self.reduced
        shape = _util.stat_shape(x.shape, axis)
        s = (var + self.eps) ** -0.5
        gamma_s = gamma * s
        ret = []
        g_beta = g_gamma = None
        if 3 in indexes or 2 in indexes:
            g_beta = sum_(gy, axis=axis)
        if 1 in indexes or 4 in indexes:
            xhat = (x - reshape(mean, shape)) * reshape(s, shape)
            g_gamma = sum_(gy * xhat, axis=axis)
        for i in indexes:
            if i == 0:
                g = gy * reshape(gamma_s, shape)
            elif i == 1:
                g = g_gamma
            elif i == 2:
                g = g_beta
            elif i == 3:
                g = -(g_beta * gamma_s)
            else:
                # dy/dvar = -gamma (x - mean) s^3 / 2 = -gamma s^2 xhat / 2
                g = g_gamma * (gamma_s * s * -0.5)
            ret.append(as_dtype(g, self.inputs[i].dtype))
        return tuple(ret)


def batch_normalization(x, gamma, beta, **kwargs):
    """batch_normalization(x, gamma, beta, eps=2e-5, running_mean=None, \
running_var=None, decay=0.9, axis=None)

    Batch normalization: standardize ``x`` with the mean and variance of
    the batch, then scale and shift.

    .. math::
        y = \\gamma \\frac{x - \\mu}{\\sqrt{\\sigma^2 + \\epsilon}} + \\beta

    :math:`\\mu` and :math:`\\sigma^2` (the biased variance) are taken over
    the reduced axes, separately for each element of the channel shape (the
    shape of ``gamma``). By default the reduced axes are the first (batch)
    axis and every axis after the channel axes: for ``x`` of shape
    ``(N, C, H, W)`` and ``gamma`` of shape ``(C,)`` they are ``(0, 2, 3)``.
    The batch statistics are used whatever ``config.train`` says (the link
    chooses between this and :func:`fixed_batch_normalization`).

    Args:
        x (Variable or array): input, float16/32/64.
        gamma (Variable or array): scale, of the channel shape and a float
            dtype (``x``'s or another; the normalization is then computed
            in the widest of the two).
        beta (Variable or array): shift, of the shape and dtype of
            ``gamma``.
        eps (float): added to the variance, for stability.
        running_mean (array or None): updated in place to
            ``decay * running_mean + (1 - decay) * mean`` (shape of
            ``gamma``).
        running_var (array or None): updated in place to
            ``decay * running_var + (1 - decay) * m / (m - 1) * var``, the
            unbiased estimate of the variance (``m`` elements reduced per
            channel). Given together with ``running_mean``.
        decay (float): the decay rate of the running averages, in [0, 1].
        axis (int, tuple of int or None): the reduced axes, in ascending
            order; ``gamma`` then has the shape of the other axes of ``x``.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    eps, running_mean, running_var, decay, axis = _util.parse_kwargs(
        'batch_normalization', kwargs, ('eps', 2e-5), ('running_mean', None),
        ('running_var', None), ('decay', 0.9), ('axis', None))
    return BatchNormalization(eps, running_mean, running_var, decay,
                              axis).apply((x, gamma, beta))[0]


def fixed_batch_normalization(x, gamma, beta, mean, var, eps=2e-5,
                              axis=None):
    """Batch normalization with given statistics (inference mode).

    .. math::
        y = \\gamma \\frac{x - \\mathrm{mean}}{\\sqrt{\\mathrm{var} +
        \\epsilon}} + \\beta

    Differentiable with respect to all five inputs.

    Args:
        x (Variable or array): input, float16/32/64.
        gamma, beta (Variable or array): scale and shift, of the channel
            shape (see :func:`batch_normalization`) and one float dtype
            (``x``'s or another).
        mean, var (Variable or array): the statistics, of the shape and
            dtype of ``gamma``.
        eps (float): added to ``var``, for stability.
        axis (int, tuple of int or None): the reduced axes, as in
            :func:`batch_normalization`.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return FixedBatchNormalization(eps, axis).apply(
        (x, gamma, beta, mean, var))[0]
