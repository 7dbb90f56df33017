"""inv and batch_inv: matrix inverses."""
import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math._util import linalg_errors_are_value_errors
from chainer_core.utils import type_check


@kernels.declare('inv')
def _inv(xp, a):
    """The inverse of each square matrix in the last two axes of a (float16
    is inverted in float32); raises ValueError on a singular matrix where
    the backend detects it."""
    with linalg_errors_are_value_errors():
        if a.dtype == numpy.float16:
            return xp.linalg.inv(a.astype(numpy.float32)).astype(a.dtype)
        return xp.linalg.inv(a)


class _InvBase(function_node.FunctionNode):
    _ndim = None

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('a',))
        a_type, = in_types
        type_check.expect(a_type.dtype.kind == 'f',
                          a_type.ndim == self._ndim)
        type_check.expect(a_type.shape[-1] == a_type.shape[-2])

    def forward(self, inputs):
        a, = inputs
        self.retain_outputs((0,))
        try:
            return kernels.lookup('inv', a)(a),
        except ValueError as e:
            raise ValueError('{}: the input has singular matrices ({})'
                             .format(self.label, e)) from e

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.matmul import matmul
        inv_a, = self.get_retained_outputs()
        # d(A^-1) = -A^-1 dA A^-1, so gA = -A^-T gY A^-T.
        g = matmul(inv_a, grad_outputs[0], transa=True)
        return -matmul(g, inv_a, transb=True),


class Inv(_InvBase):
    """Inverse of a square matrix."""

    _ndim = 2


class BatchInv(_InvBase):
    """Inverses of a batch of square matrices."""

    _ndim = 3


def inv(a):
    """Inverse of a square matrix: :math:`Y = A^{-1}`.

    Args:
        a (Variable or array): matrix of shape ``(n, n)``, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``a``.

    Raises:
        ValueError: ``a`` is singular (where the backend detects it; NumPy
            does).
    """
    return Inv().apply((a,))[0]


def batch_inv(a):
    """Inverses of a batch of square matrices.

    Args:
        a (Variable or array): matrices of shape ``(m, n, n)``,
            float16/32/64.

    Returns:
        Variable of the shape and dtype of ``a``: the ``m`` inverses.

    Raises:
        ValueError: a matrix is singular (where the backend detects it;
            NumPy does).
    """
    return BatchInv().apply((a,))[0]
