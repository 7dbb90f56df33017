"""decov: the penalty on the covariance between hidden units."""
import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.loss import _util
from chainer_core.functions.loss.cross_covariance import _centered
from chainer_core.utils import type_check


@kernels.declare('decov')
def _decov(xp, h, reduce):
    """C = (h - mean(h, 0)).T (h - mean(h, 0)) / N with a zero diagonal, of
    shape (K, K); half its squared Frobenius norm when reduce is
    'half_squared_sum'."""
    ft = _util.float_type(h.dtype)
    hc = h.astype(ft) - h.astype(ft).mean(axis=0, keepdims=True)
    # The covariance of an empty batch is nan, as in Chainer.
    with numpy.errstate(invalid='ignore'):
        cov = hc.T.dot(hc) / h.shape[0]
    cov *= 1 - xp.eye(h.shape[1], dtype=ft)
    if reduce == 'half_squared_sum':
        return xp.asarray((cov * cov).sum() * 0.5, dtype=h.dtype)
    return cov.astype(h.dtype)


class DeCov(function_node.FunctionNode):
    """DeCov loss of a batch of activations."""

    def __init__(self, reduce='half_squared_sum'):
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('h',))
        type_check.expect(
            in_types[0].dtype.kind == 'f',
            in_types[0].ndim == 2,
        )

    def forward(self, inputs):
        self.retain_inputs((0,))
        h, = inputs
        return kernels.lookup('decov', h)(h, self.reduce),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.transpose import transpose
        from chainer_core.functions.math.matmul import matmul
        h, = self.get_retained_inputs()
        gcost, = grad_outputs
        # An empty batch has empty gradients, whatever the scale.
        n = 1.0 / max(h.shape[0], 1)
        off = 1 - h.xp.eye(h.shape[1], dtype=h.dtype)
        hc = _centered(h)
        if self.reduce == 'half_squared_sum':
            cov = matmul(hc, hc, transa=True) * off * n
            g = _util.broadcast_like(gcost * (2 * n), cov.shape) * cov
        else:
            g = gcost * off * n
            g = g + transpose(g)
        return matmul(hc, g),


def decov(h, reduce='half_squared_sum'):
    """DeCov loss (https://arxiv.org/abs/1511.06068).

    With :math:`C = \\frac{1}{N} (h - \\bar h)^\\top (h - \\bar h)` (means
    over the batch axis) and its diagonal set to 0, the loss is
    :math:`\\frac{1}{2} \\sum_{ij} C_{ij}^2`.

    Args:
        h (Variable or array): activations ``(N, K)``, float16/32/64.
        reduce (str): ``'half_squared_sum'`` for the 0-dim loss, ``'no'``
            for the matrix :math:`C` of shape ``(K, K)``.

    Returns:
        Variable: of ``h``'s dtype.
    """
    _util.check_reduce('decov', reduce, ('half_squared_sum', 'no'))
    return DeCov(reduce).apply((h,))[0]
