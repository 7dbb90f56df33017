"""local_response_normalization: normalization across nearby channels."""
import numbers

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.normalization import _util
from chainer_core.utils import type_check


def _window_sum(a, half_n):
    s = a.copy()
    for i in range(1, half_n + 1):
        s[:, i:] += a[:, :-i]
        s[:, :-i] += a[:, i:]
    return s


@kernels.declare('local_response_normalization_window_sum')
def _lrn_window_sum(xp, x, half_n):
    """s[:, c] = sum of x[:, j] over channels |j - c| <= half_n (within
    range); the map is symmetric."""
    return _window_sum(_util.wide(x), half_n).astype(x.dtype, copy=False)


@kernels.declare('local_response_normalization')
def _lrn(xp, x, half_n, k, alpha, beta):
    """(y, unit_scale): unit_scale = k + alpha * window_sum(x ** 2) and
    y = x * unit_scale ** -beta; unit_scale in float32 at least."""
    xw = _util.wide(x)
    unit_scale = _window_sum(xw * xw, half_n)
    unit_scale *= alpha
    unit_scale += k
    return (xw * unit_scale ** -beta).astype(x.dtype, copy=False), unit_scale


@kernels.declare('local_response_normalization_grad')
def _lrn_grad(xp, x, gy, unit_scale, half_n, k, alpha, beta):
    """gx = gy * u ** -beta - 2 alpha beta x window_sum(x gy u ** (-beta -
    1)) for u = unit_scale = k + alpha * window_sum(x ** 2) (k is for
    kernels that recompute u from x)."""
    xw = _util.wide(x)
    p = unit_scale ** -beta
    gw = _util.wide(gy)
    t = _window_sum(xw * gw * p / unit_scale, half_n)
    t *= xw * (-2 * alpha * beta)
    t += gw * p
    return t.astype(x.dtype, copy=False)


def _check_x(in_types):
    type_check.expect(in_types.size() == 1)
    type_check.argname(in_types, ('x',))
    type_check.expect(in_types[0].dtype.kind == 'f', in_types[0].ndim >= 2)


class WindowSum(function_node.FunctionNode):
    """The channel window sum; linear and symmetric, so its own gradient."""

    def __init__(self, half_n):
        self.half_n = half_n

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('local_response_normalization_window_sum', x)(
            x, self.half_n),

    def backward(self, indexes, grad_outputs):
        return WindowSum(self.half_n).apply(grad_outputs)


class LocalResponseNormalization(function_node.FunctionNode):
    """Cross-channel local response normalization."""

    def __init__(self, n=5, k=2, alpha=1e-4, beta=0.75):
        op = 'local_response_normalization'
        if isinstance(n, bool) or not isinstance(n, numbers.Integral):
            raise TypeError('{}: n must be an int, got {!r}'.format(op, n))
        if n < 1:
            raise ValueError('{}: n must be positive, got {}'.format(op, n))
        self.n = int(n)
        self.k = _util.check_number(op, 'k', k)
        self.alpha = _util.check_number(op, 'alpha', alpha)
        self.beta = _util.check_number(op, 'beta', beta)

    check_type_forward = staticmethod(_check_x)

    def forward(self, inputs):
        x, = inputs
        y, self.unit_scale = kernels.lookup(
            'local_response_normalization', x)(
            x, self.n // 2, self.k, self.alpha, self.beta)
        self.retain_inputs((0,))
        return y,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return LocalResponseNormalizationGrad(self).apply(
            (x, grad_outputs[0]))


class LocalResponseNormalizationGrad(function_node.FunctionNode):
    """``(x, gy) -> gx`` of local response normalization."""

    def __init__(self, fwd):
        self.half_n = fwd.n // 2
        self.k, self.alpha, self.beta = fwd.k, fwd.alpha, fwd.beta
        self.unit_scale = fwd.unit_scale

    def forward(self, inputs):
        x, gy = inputs
        self.retain_inputs((0, 1))
        return kernels.lookup('local_response_normalization_grad', x)(
            x, gy, self.unit_scale, self.half_n, self.k, self.alpha,
            self.beta),

    def backward(self, indexes, grad_outputs):
        # With u = k + alpha W(x^2) (W the window sum), p = u^-beta and
        # q = u^(-beta - 1): gx = gy p - 2 alpha beta x W(x gy q). The
        # gradients of sum(ggx gx) follow by the product rule; W is
        # symmetric.
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        a, b = self.alpha, self.beta

        def window(v):
            return WindowSum(self.half_n).apply((v,))[0]

        u = window(x * x) * a + self.k
        q = u ** (-b - 1)
        w_ggx_x = window(ggx * x)
        ret = []
        if 0 in indexes:
            g_u = ggx * gy * q * -b + x * gy * (q / u) * w_ggx_x * (
                2 * a * b * (b + 1))
            ret.append((ggx * window(x * gy * q) + gy * q * w_ggx_x) * (
                -2 * a * b) + x * window(g_u) * (2 * a))
        if 1 in indexes:
            ret.append(ggx * q * u - x * q * w_ggx_x * (2 * a * b))
        return tuple(ret)


def local_response_normalization(x, n=5, k=2, alpha=1e-4, beta=.75):
    """Local response normalization across neighbouring channels.

    For channel ``i`` of ``N`` (axis 1):

    .. math::
        y_i = x_i \\left(k + \\alpha \\sum_{j=\\max(0, i - n/2)}^{\\min(N - 1,
        i + n/2)} x_j^2\\right)^{-\\beta}

    (``n/2`` rounded down, so the window holds ``n`` channels for odd
    ``n``). Differentiable twice (and more).

    Args:
        x (Variable or array): input with at least 2 axes, float16/32/64.
        n (int): the width of the window.
        k (float): the additive constant.
        alpha (float): the scale of the sum of squares.
        beta (float): the exponent.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return LocalResponseNormalization(n, k, alpha, beta).apply((x,))[0]
