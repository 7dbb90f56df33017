"""cross_covariance: the penalty on the covariance between two codes."""
import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.loss import _util
from chainer_core.utils import type_check


def _centered(v):
    """v minus its mean over axis 0, as a differentiable expression."""
    from chainer_core.functions.math.sum import sum as sum_
    # The mean of an empty batch is not needed: v - mean is empty.
    mean = sum_(v, axis=0, keepdims=True) * (1.0 / max(v.shape[0], 1))
    return v - _util.broadcast_like(mean, v.shape)


@kernels.declare('cross_covariance')
def _cross_covariance(xp, y, z, reduce):
    """C = (y - mean(y, 0)).T (z - mean(z, 0)) / N of shape (M, L); half
    its squared Frobenius norm when reduce is 'half_squared_sum'."""
    ft = _util.float_type(y.dtype)
    yc = y.astype(ft) - y.astype(ft).mean(axis=0, keepdims=True)
    zc = z.astype(ft) - z.astype(ft).mean(axis=0, keepdims=True)
    # The covariance of an empty batch is nan, as in Chainer.
    with numpy.errstate(invalid='ignore'):
        cov = yc.T.dot(zc) / y.shape[0]
    if reduce == 'half_squared_sum':
        return xp.asarray((cov * cov).sum() * 0.5, dtype=y.dtype)
    return cov.astype(y.dtype)


class CrossCovariance(function_node.FunctionNode):
    """Cross-covariance of two batches of vectors."""

    def __init__(self, reduce='half_squared_sum'):
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('y', 'z'))
        y_type, z_type = in_types
        type_check.expect(
            y_type.dtype.kind == 'f',
            y_type.dtype == z_type.dtype,
            y_type.ndim == 2,
            z_type.ndim == 2,
            y_type.shape[0] == z_type.shape[0],
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        y, z = inputs
        return kernels.lookup('cross_covariance', y)(y, z, self.reduce),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.matmul import matmul
        y, z = self.get_retained_inputs()
        gcost, = grad_outputs
        # An empty batch has empty gradients, whatever the scale.
        n = 1.0 / max(y.shape[0], 1)
        yc, zc = _centered(y), _centered(z)
        # The centred codes have zero column sums, so the products below
        # are already centred: no correction for the means is needed.
        if self.reduce == 'half_squared_sum':
            cov = matmul(yc, zc, transa=True) * n
            g = _util.broadcast_like(gcost * n, cov.shape) * cov
        else:
            g = gcost * n
        ret = []
        if 0 in indexes:
            ret.append(matmul(zc, g, transb=True))
        if 1 in indexes:
            ret.append(matmul(yc, g))
        return tuple(ret)


def cross_covariance(y, z, reduce='half_squared_sum'):
    """Penalty on the cross-covariance between ``y`` and ``z``.

    With :math:`C = \\frac{1}{N} (y - \\bar y)^\\top (z - \\bar z)` (means
    over the batch axis), the loss is :math:`\\frac{1}{2} \\sum_{ij}
    C_{ij}^2`; see https://arxiv.org/abs/1412.6583.

    Args:
        y (Variable or array): ``(N, M)``, float16/32/64.
        z (Variable or array): ``(N, L)``, of ``y``'s dtype.
        reduce (str): ``'half_squared_sum'`` for the 0-dim loss, ``'no'``
            for the matrix :math:`C` of shape ``(M, L)``.

    Returns:
        Variable: of ``y``'s dtype.
    """
    _util.check_reduce('cross_covariance', reduce, ('half_squared_sum', 'no'))
    return CrossCovariance(reduce).apply((y, z))[0]
