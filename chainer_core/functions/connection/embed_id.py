"""embed_id: rows of an embedding matrix picked by integer ids."""
import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.utils import type_check


@kernels.declare('embed_id')
def _embed_id(xp, x, W, ignore_label):
    """y = W[x] of shape x.shape + (W.shape[1],); rows of ids equal to
    ignore_label (None: no such id) are zero."""
    if ignore_label is None:
        return W[x]
    mask = x == ignore_label
    y = W[xp.where(mask, 0, x)]
    y[mask] = 0
    return y


@kernels.declare('embed_id_grad')
def _embed_id_grad(xp, x, gy, n_rows, ignore_label):
    """gW (n_rows, D): the rows of gy (x.shape + (D,)) summed into the rows
    their ids pick; ids equal to ignore_label add nothing."""
    d = gy.shape[-1]
    ids = x.ravel()
    g = gy.reshape(-1, d)
    weights = g.astype(numpy.float64)
    if ignore_label is not None:
        keep = ids != ignore_label
        ids = xp.where(keep, ids, 0)
        weights = weights * keep[:, None]
    # One bincount over (row, column) pairs sums repeated ids.
    flat = (ids.astype(numpy.int64)[:, None] * d +
            xp.arange(d, dtype=numpy.int64)[None, :]).ravel()
    gW = xp.bincount(flat, weights=weights.ravel(), minlength=n_rows * d)
    return gW.reshape(n_rows, d).astype(gy.dtype)


def _check_ids(x, n_rows, ignore_label):
    valid = (x >= 0) & (x < n_rows)
    if ignore_label is not None:
        valid |= x == ignore_label
    if not bool(valid.all()):
        bad = x[~valid].ravel()[0]
        raise ValueError(
            'embed_id: x holds the id {}, outside [0, {}) (the rows of W) '
            'and not ignore_label ({})'.format(int(bad), n_rows, ignore_label))


class EmbedIDFunction(function_node.FunctionNode):
    """Row lookup ``y = W[x]``."""

    def __init__(self, ignore_label=None):
        self.ignore_label = ignore_label

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('x', 'W'))
        x_type, w_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'i',
            w_type.dtype.kind == 'f',
            w_type.ndim == 2,
        )

    def forward(self, inputs):
        x, W = inputs
        _check_ids(x, W.shape[0], self.ignore_label)
        self.retain_inputs((0,))
        self._n_rows = W.shape[0]
        return kernels.lookup('embed_id', W)(x, W, self.ignore_label),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        gW = EmbedIDGrad(self._n_rows, self.ignore_label).apply((x, gy))[0]
        return None, gW


class EmbedIDGrad(function_node.FunctionNode):
    """``gW`` of :class:`EmbedIDFunction`: the output gradient's rows added
    into the rows of ``W`` their ids pick."""

    def __init__(self, n_rows, ignore_label):
        self.n_rows = n_rows
        self.ignore_label = ignore_label

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, gy = inputs
        return kernels.lookup('embed_id_grad', gy)(
            x, gy, self.n_rows, self.ignore_label),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        ggW, = grad_outputs
        ggy = EmbedIDFunction(self.ignore_label).apply((x, ggW))[0]
        return None, ggy


def embed_id(x, W, ignore_label=None):
    """Embedding lookup: ``y = W[x]``.

    Each integer id in ``x`` picks a row of ``W``:
    :math:`y_{i_1 \\ldots i_k, d} = W_{x_{i_1 \\ldots i_k}, d}`. Ids equal
    to ``ignore_label`` give rows of zeros (and no gradient). The gradient
    flows to ``W`` only; repeated ids add up.

    Args:
        x (Variable or array): integer ids of any shape, each in
            ``[0, W.shape[0])`` or equal to ``ignore_label``.
        W (Variable or array): embedding matrix of shape ``(n_vocab, D)``.
        ignore_label (int or None): the id that maps to zeros.

    Returns:
        Variable of shape ``x.shape + (D,)`` and ``W``'s dtype.

    Raises:
        ValueError: an id is out of range and not ``ignore_label``.
    """
    return EmbedIDFunction(ignore_label).apply((x, W))[0]
