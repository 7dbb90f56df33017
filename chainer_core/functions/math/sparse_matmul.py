"""sparse_matmul: products of a sparse (COO) and a dense matrix."""
import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.utils import type_check


def _valid_indices(xp, row, col):
    valid = (row >= 0) & (col >= 0)
    return valid, xp.where(valid, row, 0), xp.where(valid, col, 0)


@kernels.declare('sparse_matmul')
def _sparse_matmul(xp, data, row, col, m, b):
    """C = A @ b for the sparse A of shape (m, k) given by its entries
    data at (row, col) (-1: padding; repeats add up), and b of shape
    (k, n); batched when data, row, col are (B, ldnz) and b is (B, k, n).
    The result has the dtype data and b promote to."""
    dtype = numpy.result_type(data.dtype, b.dtype)
    valid, rows, cols = _valid_indices(xp, row, col)
    n = b.shape[-1]
    values = xp.where(valid, data, 0).astype(numpy.float64)
    if b.ndim == 2:
        products = values[:, None] * b[cols]
        base = rows
        size = m * n
        shape = (m, n)
    else:
        batch = xp.arange(b.shape[0])[:, None]
        products = values[..., None] * b[batch, cols]
        base = batch * m + rows
        size = b.shape[0] * m * n
        shape = (b.shape[0], m, n)
    index = base[..., None] * n + xp.arange(n)
    c = xp.bincount(index.ravel(), weights=products.ravel(), minlength=size)
    return c.reshape(shape).astype(dtype)


@kernels.declare('sparse_matmul_grad_sp')
def _sparse_matmul_grad_sp(xp, row, col, g, b):
    """The gradient of the entries: out[t] = sum_j g[row[t], j] *
    b[col[t], j] (0 for padding); batched over the first axis when g and b
    are 3-D. The result has the dtype g and b promote to."""
    valid, rows, cols = _valid_indices(xp, row, col)
    if g.ndim == 2:
        out = (g[rows] * b[cols]).sum(axis=-1)
    else:
        batch = xp.arange(g.shape[0])[:, None]
        out = (g[batch, rows] * b[batch, cols]).sum(axis=-1)
    return xp.where(valid, out, 0).astype(numpy.result_type(g.dtype, b.dtype))


class CooMatMul(function_node.FunctionNode):
    """``C = A b`` for a sparse ``A`` of shape ``shape`` whose entries are
    the input ``data`` at the fixed positions ``(row, col)``."""

    def __init__(self, row, col, shape, dtype=None):
        self.row = row
        self.col = col
        self.shape = tuple(shape)
        self.dtype = dtype

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('sp', 'dn'))
        sp_type, dn_type = in_types
        type_check.expect(
            sp_type.dtype.kind == 'f',
            dn_type.dtype.kind == 'f',
            dn_type.ndim >= 2,
            dn_type.ndim <= 3,
            sp_type.ndim == dn_type.ndim - 1,
        )
        type_check.expect(
            sp_type.shape[-1] == type_check.make_variable(
                self.row.shape[-1], 'ldnz'),
            dn_type.shape[-2] == type_check.make_variable(
                self.shape[1], 'sp_shape[1]'),
        )
        if type_check.eval(dn_type.ndim) == 3:
            batch = type_check.make_variable(self.row.shape[0], 'sp_batch')
            type_check.expect(sp_type.shape[0] == batch,
                              dn_type.shape[0] == batch)

    def forward(self, inputs):
        data, b = inputs
        self.retain_inputs((0, 1))
        c = kernels.lookup('sparse_matmul', data)(
            data, self.row, self.col, self.shape[0], b)
        if self.dtype is not None and c.dtype != self.dtype:
            c = c.astype(self.dtype)
        return c,

    def backward(self, indexes, grad_outputs):
        data, b = self.get_retained_inputs()
        gc, = grad_outputs
        m, k = self.shape
        ret = []
        if 0 in indexes:
            ret.append(CooMatMulGradSP(
                self.row, self.col, self.shape, data.dtype).apply((gc, b))[0])
        if 1 in indexes:
            # gb = A^T gc: the transpose swaps the roles of row and col.
            ret.append(CooMatMul(self.col, self.row, (k, m), b.dtype).apply(
                (data, gc))[0])
        return tuple(ret)


class CooMatMulGradSP(function_node.FunctionNode):
    """The gradient of the entries of ``A`` in ``C = A b``:
    ``(g b^T)[row, col]``, as a differentiable function of ``g`` and
    ``b``."""

    def __init__(self, row, col, shape, dtype=None):
        self.row = row
        self.col = col
        self.shape = tuple(shape)
        self.dtype = dtype

    def forward(self, inputs):
        g, b = inputs
        self.retain_inputs((0, 1))
        out = kernels.lookup('sparse_matmul_grad_sp', g)(
            self.row, self.col, g, b)
        if self.dtype is not None and out.dtype != self.dtype:
            out = out.astype(self.dtype)
        return out,

    def backward(self, indexes, grad_outputs):
        g, b = self.get_retained_inputs()
        gg, = grad_outputs
        m, k = self.shape
        ret = []
        if 0 in indexes:
            ret.append(CooMatMul(self.row, self.col, self.shape,
                                 g.dtype).apply((gg, b))[0])
        if 1 in indexes:
            ret.append(CooMatMul(self.col, self.row, (k, m),
                                 b.dtype).apply((gg, g))[0])
        return tuple(ret)


def _swap_last(x):
    from chainer_core.functions.array.transpose import transpose
    axes = tuple(range(x.ndim - 2)) + (x.ndim - 1, x.ndim - 2)
    return transpose(x, axes)


def sparse_matmul(a, b, transa=False, transb=False):
    """Product of a sparse and a dense matrix (or batches of them).

    One operand is a :class:`~chainer_core.utils.sparse.CooMatrix` (see
    :func:`~chainer_core.utils.sparse.to_coo`), the other a dense Variable
    or array; a batched COO matrix (2-D ``data``) goes with a 3-D dense
    operand of the same batch size. Gradients flow to the dense operand and
    to the COO matrix's ``data``, and can be differentiated again.

    Args:
        a (CooMatrix, Variable or array): left operand.
        b (CooMatrix, Variable or array): right operand.
        transa (bool): transpose (each matrix of) ``a``.
        transb (bool): transpose (each matrix of) ``b``.

    Returns:
        Variable: the dense product, of the dtype the operands promote to.
    """
    from chainer_core.utils.sparse import CooMatrix
    if isinstance(a, CooMatrix) and not isinstance(b, CooMatrix) and \
            hasattr(b, 'ndim'):
        row, col, shape = a.row, a.col, a.shape
        if transa:
            row, col, shape = col, row, shape[::-1]
        if transb:
            b = _swap_last(b)
        return CooMatMul(row, col, shape).apply((a.data, b))[0]
    if isinstance(b, CooMatrix) and not isinstance(a, CooMatrix) and \
            hasattr(a, 'ndim'):
        # C = op(a) op(B) is computed as (op(B)^T op(a)^T)^T.
        row, col, shape = b.row, b.col, b.shape
        if not transb:
            row, col, shape = col, row, shape[::-1]
        if not transa:
            a = _swap_last(a)
        return _swap_last(CooMatMul(row, col, shape).apply((b.data, a))[0])
    raise ValueError(
        'sparse_matmul: one operand must be a CooMatrix and the other a '
        'Variable or an array, got a: {} and b: {}'.format(
            type(a).__name__, type(b).__name__))
