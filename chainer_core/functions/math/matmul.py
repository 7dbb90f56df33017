"""matmul: (batched) matrix products; batch_matmul, its deprecated
predecessor."""
import warnings

import numpy

from chainer_core._runtime import graphs, kernels, rules
from chainer_core import function_node
from chainer_core.functions.math import sum as _sum_kernels  # NOQA: declares rule kernels of its rules
from chainer_core.utils import type_check


@kernels.declare('matmul')
def _matmul(xp, a, b, transa, transb):
    """a @ b over the last two axes (batch axes broadcast); transa/transb
    swap the last two axes of a/b first."""
    if transa:
        a = a.swapaxes(-1, -2)
    if transb:
        b = b.swapaxes(-1, -2)
    return xp.matmul(a, b)


def promote(*arrays):
    """The arrays (None passes through) in their common dtype.

    Ops that take operands of several float dtypes (a float32 ``x`` with
    float16 weights, ...) compute in the dtype NumPy's promotion gives, so
    their kernels, whatever the backend, see one dtype; the ops cast the
    result to the dtype they return.
    """
    dtype = None
    for a in arrays:
        if a is not None:
            if dtype is None:
                dtype = a.dtype
            elif a.dtype != dtype:
                break
    else:
        return arrays
    dtype = numpy.result_type(*[a.dtype for a in arrays if a is not None])
    return tuple([a if a is None or a.dtype == dtype else a.astype(dtype)
                  for a in arrays])


@rules.kernel('cast', ('a',), ('dtype',))
def as_dtype(x, dtype):
    """The Variable ``x`` in ``dtype``: a differentiable cast where the
    dtypes differ (a gradient must have the dtype of its input)."""
    if x is None or x.dtype == dtype:
        return x
    from chainer_core.functions.array.cast import cast
    return cast(x, dtype)


class MatMul(function_node.FunctionNode):
    """Matrix product of the last two axes, batch axes broadcast; the
    result has the dtype NumPy's promotion gives to the operands'."""

    graph_kernel = graphs.declare(
        'matmul', ('transa', 'transb'), 'a @ b over the last two axes of the '
        'inputs (a, b), batch axes broadcast; transa/transb (bools) swap the '
        'last two axes of a/b first. The result has the dtype NumPy gives.',
        derivative='''
            ga = matmul_grad_a(gy0, x1, transa=transa, transb=transb)
            gx0 = cast(sum_to(ga, shape=x0.shape), dtype=x0.dtype)
            gb = matmul_grad_b(x0, gy0, transa=transa, transb=transb)
            gx1 = cast(sum_to(gb, shape=x1.shape), dtype=x1.dtype)''')

    def __init__(self, transa=False, transb=False):
        self.transa = transa
        self.transb = transb

    def graph_kernel_params(self, inputs):
        return {'transa': self.transa, 'transb': self.transb}

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('a', 'b'))
        a_type, b_type = in_types
        type_check.expect(
            a_type.dtype.kind == 'f',
            b_type.dtype.kind == 'f',
            a_type.ndim >= 2,
            b_type.ndim >= 2,
        )
        a_k = a_type.shape[-2] if self.transa else a_type.shape[-1]
        b_k = b_type.shape[-1] if self.transb else b_type.shape[-2]
        type_check.expect(a_k == b_k)
        a_batch = type_check.eval(a_type.shape)[:-2]
        b_batch = type_check.eval(b_type.shape)[:-2]
        if a_batch and b_batch and a_batch != b_batch:
            type_check.expect_broadcast_shapes(a_type.shape[:-2],
                                               b_type.shape[:-2])

    def forward(self, inputs):
        a, b = promote(*inputs)
        return kernels.lookup('matmul', a)(a, b, self.transa, self.transb),


@rules.kernel('matmul', ('a', 'b'), ('transa', 'transb'))
def _matmul_rule(a, b, transa, transb):
    """a @ b over the last two axes, after swapping them in a (transa) and
    b (transb)."""
    return MatMul(transa, transb).apply((a, b))[0]


@rules.kernel('matmul_grad_a', ('gy', 'b'), ('transa', 'transb'))
def _matmul_grad_a_rule(gy, b, transa, transb):
    """The gradient of a in matmul(a, b, transa, transb) before summing
    over broadcast batch axes: gy @ op(b)^T, transposed back if transa."""
    if transa:
        return matmul(b, gy, transa=transb, transb=True)
    return matmul(gy, b, transb=not transb)


@rules.kernel('matmul_grad_b', ('a', 'gy'), ('transa', 'transb'))
def _matmul_grad_b_rule(a, gy, transa, transb):
    """The gradient of b in matmul(a, b, transa, transb) before summing
    over broadcast batch axes: op(a)^T @ gy, transposed back if transb."""
    if transb:
        return matmul(gy, a, transa=True, transb=transa)
    return matmul(a, gy, transa=not transa)


def matmul(a, b, transa=False, transb=False):
    """Matrix product :math:`y = op(a) \\, op(b)`.

    The last two axes are the matrices; leading (batch) axes broadcast. As
    in ``numpy.matmul``, a one-dimensional ``a`` is a row and a
    one-dimensional ``b`` a column, and the axis added for it is dropped
    from the result (two vectors give their dot product, of shape ``()``);
    ``transa``/``transb`` do not change a one-dimensional operand.

    Args:
        a (Variable or array): left operand, shape ``(..., M, K)``.
        b (Variable or array): right operand, shape ``(..., K, N)``; its
            float dtype may differ from ``a``'s.
        transa (bool): use ``a`` with its last two axes swapped.
        transb (bool): use ``b`` with its last two axes swapped.

    Returns:
        Variable of shape ``(..., M, N)``, of the dtype NumPy's promotion
        gives to ``a``'s and ``b``'s (float32 for float16 and float32).
    """
    a_vec, b_vec = a.ndim == 1, b.ndim == 1
    if not (a_vec or b_vec):
        return MatMul(transa, transb).apply((a, b))[0]
    from chainer_core.functions.array.reshape import reshape
    if a_vec:
        a, transa = reshape(a, (1, -1)), False
    if b_vec:
        b, transb = reshape(b, (-1, 1)), False
    y = MatMul(transa, transb).apply((a, b))[0]
    shape = y.shape[:-2] + (() if a_vec else y.shape[-2:-1]) + \
        (() if b_vec else y.shape[-1:])
    return reshape(y, shape)


def batch_matmul(a, b, transa=False, transb=False):
    """Matrix products of two batches of matrices (deprecated).

    A 2-D operand of shape ``(B, N)`` is a batch of ``B`` column vectors
    (``N x 1`` matrices); a 3-D one of shape ``(B, M, N)`` a batch of
    ``M x N`` matrices. Both operands have the same batch size ``B``.

    .. deprecated:: v3.0.0
        As in Chainer, this warns with a :class:`DeprecationWarning`; use
        :func:`matmul`, which broadcasts batch axes.

    Args:
        a (Variable or array): left operand, 2-D or 3-D.
        b (Variable or array): right operand, 2-D or 3-D.
        transa (bool): transpose each matrix of ``a``.
        transb (bool): transpose each matrix of ``b``.

    Returns:
        Variable: the ``B`` products, a 3-D array.
    """
    warnings.warn('batch_matmul is deprecated; use matmul instead',
                  DeprecationWarning, stacklevel=2)
    from chainer_core.functions.array.reshape import reshape
    for name, x in (('a', a), ('b', b)):
        if not hasattr(x, 'ndim'):
            raise TypeError('batch_matmul: {} must be a Variable or an array, '
                            'got {}'.format(name, type(x).__name__))
        if x.ndim not in (2, 3):
            raise ValueError('batch_matmul: {} must be 2-D or 3-D, got shape '
                             '{}'.format(name, x.shape))
    if a.shape[0] != b.shape[0]:
        raise ValueError('batch_matmul: a and b must have the same batch '
                         'size, got shapes {} and {}'.format(a.shape, b.shape))
    if a.ndim == 2:
        a = reshape(a, a.shape + (1,))
    if b.ndim == 2:
        b = reshape(b, b.shape + (1,))
    return MatMul(transa, transb).apply((a, b))[0]
