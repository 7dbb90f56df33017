"""scatter_add: add values into indexed positions of an array."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array.get_item import (
    _check_bounds, _normalize_slices)
from chainer_core.utils import type_check


@kernels.declare('scatter_add')
def _scatter_add(xp, a, slices, b):
    """A copy of a with b added at a[slices]; where an advanced index
    repeats a position, every value is added."""
    y = a.copy()
    xp.add.at(y, slices, b)
    return y


class ScatterAdd(function_node.FunctionNode):
    """``y = a; y[slices] += b`` with repeated positions accumulated."""

    def __init__(self, slices):
        self.slices = slices

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('a', 'b'))
        type_check.expect(in_types[0].dtype == in_types[1].dtype)

    def forward(self, inputs):
        a, b = inputs
        _check_bounds(a.shape, self.slices, 'scatter_add')
        target = a[self.slices].shape
        if target != b.shape:
            raise ValueError(
                'scatter_add: b must have the shape of a[slices], {}, got {} '
                '(b is not broadcast)'.format(target, b.shape))
        return kernels.lookup('scatter_add', a)(a, self.slices, b),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.get_item import get_item
        gy, = grad_outputs
        return tuple(gy if i == 0 else get_item(gy, self.slices)
                     for i in indexes)


def scatter_add(a, slices, b):
    """Add ``b`` into ``a`` at ``slices``: ``y = a; y[slices] += b``.

    Unlike in-place ``+=`` on an array, positions that an advanced index
    picks several times receive every value (as ``numpy.add.at``).

    Args:
        a (Variable or array): the base array.
        slices: an index of ``a`` as for :func:`get_item` (ints, slices,
            None, Ellipsis, integer or boolean arrays).
        b (Variable or array): the values, of the shape of ``a[slices]``
            and the dtype of ``a``.

    Returns:
        Variable: output of the shape of ``a``; differentiable in ``a``
        and ``b``.
    """
    return ScatterAdd(_normalize_slices(slices, 'scatter_add')).apply(
        (a, b))[0]
