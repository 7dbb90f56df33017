"""group_normalization: normalize each sample over groups of channels."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.normalization import _standardize as _std
from chainer_core.functions.normalization import _util
from chainer_core.utils import type_check
from chainer_core.utils.array import size_of_shape


@kernels.declare('group_normalization')
def _group_normalization(xp, x, gamma, beta, groups, eps):
    """(y, mean, inv_std): x of shape (N, C, ...) standardized over each of
    the groups of C // groups consecutive channels of each sample, then
    scaled and shifted per channel by gamma and beta (shape (C,)); mean and
    inv_std of shape (N, groups, 1), in float32 at least."""
    n, c = x.shape[:2]
    xw = _util.wide(x).reshape(
        n, groups, c // groups * size_of_shape(x.shape[2:]))
    mean = xw.mean(axis=2, keepdims=True)
    xc = xw - mean
    inv_std = 1 / xp.sqrt((xc * xc).mean(axis=2, keepdims=True) + eps)
    xc *= inv_std
    xc = xc.reshape(n, c, size_of_shape(x.shape[2:]))
    xc *= gamma[:, None]
    xc += beta[:, None]
    return xc.reshape(x.shape).astype(x.dtype, copy=False), mean, inv_std


class GroupNormalization(function_node.FunctionNode):
    """Group normalization."""

    axis = (2,)

    def __init__(self, groups, eps=1e-5):
        op = 'group_normalization'
        self.groups = _util.check_groups(op, groups)
        self.eps = _util.check_number(op, 'eps', eps, low=0)

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 3)
        type_check.argname(in_types, ('x', 'gamma', 'beta'))
        x_type, gamma_type, beta_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim >= 2,
            gamma_type.ndim == 1,
            beta_type.ndim == 1,
            gamma_type.dtype == x_type.dtype,
            beta_type.dtype == x_type.dtype,
            x_type.shape[1] == gamma_type.shape[0],
            beta_type.shape == gamma_type.shape,
        )
        groups = type_check.make_variable(self.groups, 'groups')
        type_check.expect(x_type.shape[1] % groups == 0)

    def forward(self, inputs):
        x, gamma, beta = inputs
        y, mean, inv_std = kernels.lookup('group_normalization', x)(
            x, gamma, beta, self.groups, self.eps)
        self.stats = mean, inv_std
        self.retain_inputs((0, 1))
        return y,

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.reshape import reshape
        from chainer_core.functions.math.sum import sum as sum_
        x, gamma = self.get_retained_inputs()
        gy, = grad_outputs
        n, c = x.shape[:2]
        per_channel = size_of_shape(x.shape[2:])
        grouped = (n, self.groups, c // self.groups * per_channel)
        gy3 = reshape(gy, (n, c, per_channel))
        ret = []
        for i in indexes:
            if i == 0:
                g_xhat = reshape(gy3 * reshape(gamma, (c, 1)), grouped)
                gx = _std.apply_m(self, reshape(x, grouped), g_xhat)
                ret.append(reshape(gx, x.shape))
            elif i == 1:
                xhat = _std.standardized(self, reshape(x, grouped))[0]
                ret.append(sum_(gy3 * reshape(xhat, (n, c, per_channel)),
                                axis=(0, 2)))
            else:
                ret.append(sum_(gy3, axis=(0, 2)))
        return tuple(ret)


def group_normalization(x, groups, gamma, beta, eps=1e-5):
    """Group normalization: standardize each sample over groups of
    channels, then scale and shift per channel.

    The ``C`` channels of ``x`` (shape ``(N, C, ...)``) are split into
    ``groups`` groups of ``C // groups`` consecutive channels; each group of
    each sample is standardized with its own mean and (biased) variance
    over its channels and the remaining axes:

    .. math::
        y = \\gamma_c \\frac{x - \\mu_{n,g}}{\\sqrt{\\sigma_{n,g}^2 +
        \\epsilon}} + \\beta_c

    Differentiable twice (and more).

    Args:
        x (Variable or array): input of shape ``(N, C, ...)``,
            float16/32/64.
        groups (int): the number of groups; it must divide ``C``.
        gamma (Variable or array): scale of shape ``(C,)``, the dtype of
            ``x``.
        beta (Variable or array): shift of shape ``(C,)``.
        eps (float): added to the variance, for stability.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return GroupNormalization(groups, eps).apply((x, gamma, beta))[0]
