"""Sparse matrices in COO format, for sparse_matmul.

A :class:`CooMatrix` holds the entries of one matrix (or of a batch of
matrices) as ``data``, ``row`` and ``col`` arrays of one length ``ldnz``;
entries whose ``row`` and ``col`` are -1 are padding (a batch pads each
matrix to the same number of entries), and repeated positions add up.
"""
import numpy


def _xp(a):
    from chainer_core.backend import get_array_module
    return get_array_module(a)


class CooMatrix:
    """A sparse matrix, or a batch of them, in COO format.

    Args:
        data (array): the entries, of shape ``(ldnz,)`` (one matrix) or
            ``(batch, ldnz)``.
        row (array): the row index of each entry (-1 for padding), an int
            array of the shape of ``data``.
        col (array): the column index of each entry (-1 for padding), of
            the shape of ``data``.
        shape (tuple of int): ``(rows, cols)`` of each dense matrix.
        order ('C', 'F', 'other' or None): whether the entries are sorted by
            row ('C') or by column ('F'); None finds out.
        requires_grad (bool): whether gradients flow to ``data``.

    Attributes:
        data (Variable): the entries.
        row, col (array): the indices.
        shape (tuple of int): the dense shape of one matrix.
        order (str): 'C', 'F' or 'other'.
    """

    def __init__(self, data, row, col, shape, order=None,
                 requires_grad=False):
        from chainer_core.variable import Variable
        for name, a in (('data', data), ('row', row), ('col', col)):
            if not hasattr(a, 'ndim'):
                raise TypeError('CooMatrix: {} must be an array, got {}'
                                .format(name, type(a).__name__))
        if not 1 <= data.ndim <= 2:
            raise ValueError('CooMatrix: data must be 1-D or 2-D, got ndim {}'
                             .format(data.ndim))
        if not data.shape == row.shape == col.shape:
            raise ValueError('CooMatrix: data, row and col must have one '
                             'shape, got {}, {} and {}'.format(
                                 data.shape, row.shape, col.shape))
        if row.dtype.kind not in 'iu' or col.dtype.kind not in 'iu':
            raise TypeError('CooMatrix: row and col must be integer arrays, '
                            'got {} and {}'.format(row.dtype, col.dtype))
        shape = tuple(shape)
        if len(shape) != 2:
            raise ValueError('CooMatrix: shape must have two entries, got {}'
                             .format(shape))
        if not (shape[0] > 0 and shape[1] > 0):
            raise ValueError('CooMatrix: shape entries must be positive, got '
                             '{}'.format(shape))
        if order not in ('C', 'F', 'other', None):
            raise ValueError("CooMatrix: order must be 'C', 'F', 'other' or "
                             "None, got {!r}".format(order))
        self.data = Variable(data, requires_grad=requires_grad)
        self.row = row
        self.col = col
        self.shape = shape
        self.order = get_order(row, col) if order is None else order

    def to_dense(self):
        """The dense matrix (or batch of matrices) as an array; repeated
        positions add up."""
        data = self.data.array
        xp = _xp(data)
        batched = data.ndim == 2
        nb = data.shape[0] if batched else 1
        m, n = self.shape
        valid = (self.row >= 0) & (self.col >= 0)
        index = xp.where(valid, self.row * n + self.col, 0)
        if batched:
            index = index + (xp.arange(nb) * (m * n))[:, None]
        values = xp.where(valid, data, 0).astype(numpy.float64)
        dense = xp.bincount(index.ravel(), weights=values.ravel(),
                            minlength=nb * m * n)
        dense = dense.astype(data.dtype)
        return dense.reshape((nb, m, n) if batched else (m, n))


def to_coo(x, ldnz=None, requires_grad=False):
    """A dense matrix (2-D) or batch of matrices (3-D) as a
    :class:`CooMatrix` holding its non-zero entries, in row-major order.

    Args:
        x (array): the matrix, or matrices along the first axis.
        ldnz (int): the length of the entry arrays; at least the number of
            non-zero entries (of the fullest matrix, for a batch), which is
            also the default. Extra entries are padding.
        requires_grad (bool): whether gradients flow to the entries.

    Returns:
        CooMatrix: with ``row`` and ``col`` of int32.

    .. admonition:: Example

        >>> x = numpy.array([[0, 2, 0], [-1, 0, 0]], numpy.float32)
        >>> coo = to_coo(x)
        >>> coo.data.array, coo.row, coo.col
        (array([ 2., -1.], dtype=float32), array([0, 1], dtype=int32), \
array([1, 0], dtype=int32))
    """
    if not hasattr(x, 'ndim'):
        raise TypeError('to_coo: x must be an array, got {}'.format(
            type(x).__name__))
    if x.ndim not in (2, 3):
        raise ValueError('to_coo: x must be 2-D or 3-D, got ndim {}'.format(
            x.ndim))
    xp = _xp(x)
    batch = x if x.ndim == 3 else x[None]
    found = [xp.nonzero(matrix) for matrix in batch]
    width = max([int(r.size) for r, _ in found] + [ldnz or 0])
    data = xp.zeros((len(batch), width), dtype=x.dtype)
    row = xp.full((len(batch), width), -1, dtype=numpy.int32)
    col = xp.full((len(batch), width), -1, dtype=numpy.int32)
    for i, (r, c) in enumerate(found):
        nnz = int(r.size)
        data[i, :nnz] = batch[i][r, c]
        row[i, :nnz] = r
        col[i, :nnz] = c
    if x.ndim == 2:
        data, row, col = data[0], row[0], col[0]
    return CooMatrix(data, row, col, x.shape[-2:],
                     requires_grad=requires_grad)


def _sorted_by(major, minor):
    """Whether the (major, minor) pairs are in lexicographic order."""
    if major.size <= 1:
        return True
    d_major = major[1:] - major[:-1]
    d_minor = minor[1:] - minor[:-1]
    return bool(((d_major > 0) | ((d_major == 0) & (d_minor >= 0))).all())


def get_order(row, col):
    """Whether COO indices are sorted by row ('C'), by column ('F') or
    neither ('other'); padding (-1) is ignored.

    Raises:
        ValueError: an entry has one index -1 and the other not.
    """
    if row.shape != col.shape:
        raise ValueError('get_order: row and col must have one shape, got {} '
                         'and {}'.format(row.shape, col.shape))
    if ((row < 0) != (col < 0)).any():
        raise ValueError('get_order: an entry has a negative row or column '
                         'index but not both')
    rows = row.reshape(-1, row.shape[-1]) if row.ndim else row.reshape(1, 1)
    cols = col.reshape(rows.shape)
    c_order = f_order = True
    for r, c in zip(rows, cols):
        keep = r >= 0
        r, c = r[keep], c[keep]
        c_order = c_order and _sorted_by(r, c)
        f_order = f_order and _sorted_by(c, r)
    if c_order:
        return 'C'
    if f_order:
        return 'F'
    return 'other'
