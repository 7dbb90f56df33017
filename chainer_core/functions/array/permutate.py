"""permutate: reorder the slices along an axis by a permutation."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.utils import type_check


@kernels.declare('permutate')
def _permutate(xp, x, indices, axis, inv):
    """y = x.take(indices, axis); with inv, the inverse permutation:
    y.take(indices, axis) == x."""
    if inv:
        indices = xp.argsort(indices)
    return xp.take(x, indices, axis=axis)


def _check_permutation(indices):
    n = indices.shape[0]
    if n == 0:
        return
    ok = int(indices.min()) >= 0 and int(indices.max()) < n
    if ok:
        counts = _util.xp_of(indices).bincount(indices, minlength=n)
        ok = bool((counts == 1).all())
    if not ok:
        raise ValueError('permutate: indices must be a permutation of 0, '
                         '..., {} (each value once)'.format(n - 1))


class Permutate(function_node.FunctionNode):
    """Reorder slices along an axis."""

    def __init__(self, axis=0, inv=False):
        self.axis = _util.check_int(axis, 'permutate', 'axis')
        self.inv = bool(inv)

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('x', 'indices'))
        x_type, ind_type = in_types
        type_check.expect(ind_type.dtype.kind == 'i', ind_type.ndim == 1)
        _util.expect_axis(x_type, self.axis, 'axis')
        type_check.expect(x_type.shape[self.axis] == ind_type.shape[0])

    def forward(self, inputs):
        x, indices = inputs
        _check_permutation(indices)
        self._indices = indices
        return kernels.lookup('permutate', x)(x, indices, self.axis,
                                              self.inv),

    def backward(self, indexes, grad_outputs):
        if 0 not in indexes:
            return None,
        gx, = Permutate(self.axis, not self.inv).apply(
            (grad_outputs[0], self._indices))
        return (gx,) + (None,) * (len(indexes) - 1)


def permutate(x, indices, axis=0, inv=False):
    """Reorder the slices of ``x`` along ``axis``.

    ``y[..., i, ...] = x[..., indices[i], ...]``; with ``inv`` the inverse:
    ``y[..., indices[i], ...] = x[..., i, ...]``.

    Args:
        x (Variable or array): input.
        indices (Variable or array): 1-D signed integer array, a
            permutation of ``0, ..., x.shape[axis] - 1``.
        axis (int): the axis to reorder.
        inv (bool): apply the inverse permutation.

    Returns:
        Variable: output of the shape of ``x``; differentiable in ``x``.
    """
    return Permutate(axis, inv).apply((x, indices))[0]
