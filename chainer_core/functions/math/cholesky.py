"""cholesky: the Cholesky factor of a symmetric positive definite matrix.

The gradient (Murray, 2016) with L = cholesky(A) and output gradient G is
the symmetric part of S = L^-T Phi(L^T G) L^-1, where Phi keeps the lower
triangle and halves the diagonal; it is written with differentiable ops
so that it can be differentiated again.
"""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math._util import (
    compute_dtype, linalg_errors_are_value_errors)
from chainer_core.utils import type_check


@kernels.declare('cholesky')
def _cholesky(xp, a):
    """L (n, n), lower triangular with a positive diagonal, L L^T = a, for
    a symmetric positive definite (only the lower triangle of a is
    read; float16 is factored in float32)."""
    w = a.astype(compute_dtype(a.dtype), copy=False)
    with linalg_errors_are_value_errors():
        return xp.linalg.cholesky(w).astype(a.dtype, copy=False)


class Cholesky(function_node.FunctionNode):
    """Cholesky decomposition of one matrix."""

    @property
    def label(self):
        return 'cholesky'

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('a',))
        a_type, = in_types
        type_check.expect(
            a_type.dtype.kind == 'f',
            a_type.ndim == 2,
            a_type.shape[0] == a_type.shape[1],
        )

    def forward(self, inputs):
        a, = inputs
        self.retain_outputs((0,))
        return kernels.lookup('cholesky', a)(a),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.transpose import transpose
        from chainer_core.functions.math.inv import inv
        from chainer_core.functions.math.matmul import matmul
        L, = self.get_retained_outputs()
        xp = L.xp
        n = L.shape[0]
        # Phi as a product with a constant: ones below the diagonal, 1/2 on
        # it, zeros above.
        phi = xp.tril(xp.ones((n, n), dtype=L.dtype)) - \
            xp.eye(n, dtype=L.dtype) * 0.5
        inner = matmul(L, grad_outputs[0], transa=True) * phi
        L_inv = inv(L)
        s = matmul(matmul(L_inv, inner, transa=True), L_inv)
        return (s + transpose(s)) * 0.5,


def cholesky(a):
    """Cholesky decomposition of a symmetric positive definite matrix:
    the lower triangular :math:`L` with a positive diagonal and
    :math:`L L^\\top = A`.

    Only the lower triangle of ``a`` is read; its gradient is symmetric.

    Args:
        a (Variable or array): matrix of shape ``(n, n)``, float16/32/64,
            symmetric positive definite.

    Returns:
        Variable of shape ``(n, n)`` and the dtype of ``a``.

    Raises:
        numpy.linalg.LinAlgError: ``a`` is not positive definite (with
            NumPy; the error is also a ``ValueError``).

    .. admonition:: Example

        >>> F.cholesky(np.array([[4.0, 2.0], [2.0, 3.0]])).array
        array([[2.        , 0.        ],
               [1.        , 1.41421356]])
    """
    return Cholesky().apply((a,))[0]
