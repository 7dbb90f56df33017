"""det and batch_det: determinants of square matrices."""
import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.utils import type_check


@kernels.declare('det')
def _det(xp, a):
    """The determinant of each square matrix in the last two axes of a
    (float16 is computed in float32)."""
    if a.dtype == numpy.float16:
        return xp.asarray(xp.linalg.det(a.astype(numpy.float32)),
                          dtype=a.dtype)
    return xp.asarray(xp.linalg.det(a))


class BatchDet(function_node.FunctionNode):
    """Determinants of a batch of square matrices."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('a',))
        a_type, = in_types
        type_check.expect(a_type.dtype.kind == 'f', a_type.ndim == 3)
        type_check.expect(a_type.shape[-1] == a_type.shape[-2])

    def forward(self, inputs):
        a, = inputs
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        return kernels.lookup('det', a)(a),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.broadcast import broadcast_to
        from chainer_core.functions.array.reshape import reshape
        from chainer_core.functions.array.transpose import transpose
        from chainer_core.functions.math.inv import batch_inv
        a, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        # Jacobi's formula: d det(A) / dA = det(A) A^-T.
        scale = reshape(grad_outputs[0] * y, (a.shape[0], 1, 1))
        inv_t = transpose(batch_inv(a), (0, 2, 1))
        return broadcast_to(scale, a.shape) * inv_t,


def batch_det(a):
    """Determinants of a batch of square matrices.

    The gradient, :math:`\\det(A) A^{-T}`, needs the matrices to be
    invertible.

    Args:
        a (Variable or array): matrices of shape ``(m, n, n)``,
            float16/32/64.

    Returns:
        Variable of shape ``(m,)``, of the dtype of ``a``.
    """
    return BatchDet().apply((a,))[0]


def det(a):
    """Determinant of a square matrix.

    The gradient, :math:`\\det(A) A^{-T}`, needs the matrix to be
    invertible.

    Args:
        a (Variable or array): matrix of shape ``(n, n)``, float16/32/64.

    Returns:
        Variable of shape ``()``, of the dtype of ``a``.
    """
    from chainer_core.functions.array.reshape import reshape
    if not hasattr(a, 'ndim'):
        raise TypeError('det: a must be a Variable or an array, got {}'
                        .format(type(a).__name__))
    if a.ndim != 2:
        raise TypeError('det: a must be a matrix (2-D), got shape {}'.format(
            a.shape))
    return reshape(BatchDet().apply((reshape(a, (1,) + a.shape),))[0], ())
