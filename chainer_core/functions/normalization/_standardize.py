"""Standardization over a set of axes, the differentiable core shared by
batch, layer and group normalization.

``xhat = (x - mean) * s`` with ``s = 1 / sqrt(var + eps)``, the mean and the
biased variance taken over ``axis``. Its gradient is the linear map

    M(v) = s * (v - mean(v) - xhat * mean(v * xhat))

of the output gradient ``v`` (:class:`StandardizeGrad`). Both nodes are
differentiable again with differentiable functions, so every order of
derivative is exact.
"""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.normalization._util import wide


@kernels.declare('standardize')
def _standardize(xp, x, axis, eps):
    """(xhat, mean, inv_std): x standardized over axis (a tuple), and the
    mean and 1 / sqrt(var + eps) in keepdims shape, in float32 at least."""
    xw = wide(x)
    mean = xw.mean(axis=axis, keepdims=True)
    xc = xw - mean
    inv_std = 1 / xp.sqrt((xc * xc).mean(axis=axis, keepdims=True) + eps)
    xc *= inv_std
    return xc.astype(x.dtype, copy=False), mean, inv_std


@kernels.declare('standardize_apply')
def _standardize_apply(xp, x, mean, inv_std):
    """xhat = (x - mean) * inv_std with known statistics, in x's dtype."""
    return ((wide(x) - mean) * inv_std).astype(x.dtype, copy=False)


@kernels.declare('standardize_grad')
def _standardize_grad(xp, x, gy, mean, inv_std, axis):
    """gx = inv_std * (gy - mean(gy) - xhat * mean(gy * xhat)), the means
    over axis; the gradient of standardize for the output gradient gy."""
    xhat = (wide(x) - mean) * inv_std
    gw = wide(gy)
    g_mean = gw.mean(axis=axis, keepdims=True)
    gx_mean = (gw * xhat).mean(axis=axis, keepdims=True)
    xhat *= gx_mean
    gx = (gw - g_mean - xhat) * inv_std
    return gx.astype(x.dtype, copy=False)


def axis_mean(v, axis):
    """Differentiable mean of ``v`` over ``axis``, keeping the axes."""
    from chainer_core.functions.math.sum import sum as sum_
    m = 1
    for a in axis:
        m *= v.shape[a]
    return sum_(v, axis=axis, keepdims=True) * (1.0 / m)


class Standardize(function_node.FunctionNode):
    """``x -> (xhat, s)``; ``s = 1 / sqrt(var + eps)`` in keepdims shape.

    ``stats``, the ``(mean, inv_std)`` arrays of a fused forward pass that
    already computed them, spares computing them again.
    """

    def __init__(self, axis, eps, stats=None):
        self.axis = axis
        self.eps = eps
        self.stats = stats

    def forward(self, inputs):
        x, = inputs
        if self.stats is None:
            xhat, mean, inv_std = kernels.lookup('standardize', x)(
                x, self.axis, self.eps)
            self.stats = mean, inv_std
        else:
            mean, inv_std = self.stats
            xhat = kernels.lookup('standardize_apply', x)(x, mean, inv_std)
        self.retain_inputs((0,))
        self.retain_outputs((0, 1))
        return xhat, inv_std.astype(x.dtype, copy=False)

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        xhat, s = self.get_retained_outputs()
        g_xhat, g_s = grad_outputs
        gx = None
        if g_xhat is not None:
            gx = StandardizeGrad(self.axis, self.eps, self.stats).apply(
                (x, g_xhat))[0]
        if g_s is not None:
            # ds/dx = -s^2 xhat / m, m the number of elements reduced.
            m = x.size // s.size
            term = xhat * (g_s * s * s * (-1.0 / m))
            gx = term if gx is None else gx + term
        return gx,


class StandardizeGrad(function_node.FunctionNode):
    """``(x, gy) -> M_x(gy)``, the gradient of :class:`Standardize`."""

    def __init__(self, axis, eps, stats):
        self.axis = axis
        self.eps = eps
        self.stats = stats

    def forward(self, inputs):
        x, gy = inputs
        mean, inv_std = self.stats
        self.retain_inputs((0, 1))
        self.retain_outputs((0,))
        return kernels.lookup('standardize_grad', x)(
            x, gy, mean, inv_std, self.axis),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        gx, = self.get_retained_outputs()
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(second_order_x(self, x, gy, ggx, gx))
        if 1 in indexes:
            # M is symmetric, so the gradient with respect to gy is M(ggx).
            ret.append(apply_m(self, x, ggx))
        return tuple(ret)


def apply_m(node, x, v):
    """``M_x(v)`` with the statistics of ``node`` (differentiable)."""
    return StandardizeGrad(node.axis, node.eps, node.stats).apply((x, v))[0]


def standardized(node, x):
    """``(xhat, s)`` of ``x`` as differentiable functions of ``x``, from the
    statistics ``node`` already holds."""
    return Standardize(node.axis, node.eps, node.stats).apply((x,))


def second_order_x(node, x, v, ggx, gx, extra=None, xhat_s=None):
    """Gradient with respect to ``x`` of ``sum(ggx * M_x(v))`` (``v`` held
    fixed), plus ``M_x(extra)`` (the backprop of ``extra`` through xhat).

    ``gx`` is ``M_x(v)``. With ``b = mean(v xhat)`` and
    ``d = mean(ggx xhat)``, the sum depends on xhat with gradient
    ``u = -s (ggx b + v d)`` and on ``s`` with gradient
    ``sum(ggx gx) / s``; through ``xhat(x)`` and ``s(x)`` that gives
    ``M_x(u) - xhat s mean(ggx gx)``.
    """
    axis = node.axis
    xhat, s = standardized(node, x) if xhat_s is None else xhat_s
    b = axis_mean(v * xhat, axis)
    d = axis_mean(ggx * xhat, axis)
    u = -(s * (ggx * b + v * d))
    if extra is not None:
        u = u + extra
    return apply_m(node, x, u) - xhat * (s * axis_mean(ggx * gx, axis))
