"""sort and argsort along an axis."""
from chainer_core._runtime import kernels
from chainer_core.functions.array import _util
from chainer_core.variable import Variable, as_array


@kernels.declare('argsort')
def _argsort(xp, x, axis, descending):
    """The indices that sort x along axis, stably: equal elements keep
    their order (also when descending)."""
    if not descending:
        return xp.argsort(x, axis=axis, kind='stable')
    # Sorting the reversed axis ascending and reversing the result orders
    # equal elements by their original position.
    n = x.shape[axis]
    order = xp.argsort(xp.flip(x, axis), axis=axis, kind='stable')
    return (n - 1) - xp.flip(order, axis)


def sort_indices(x, axis, descending, op):
    """The stable sorting permutation of the array ``x`` along ``axis``
    (int64), and ``axis`` normalized."""
    axis = _util.normalize_axis(_util.check_int(axis, op, 'axis'), x.ndim,
                                op)
    return kernels.lookup('argsort', x)(x, axis, bool(descending)), axis


def argsort(x, axis=-1, descending=False):
    """The indices that sort ``x`` along ``axis``.

    The sort is stable: equal elements keep their order, also with
    ``descending``. Indices are not differentiable.

    Args:
        x (Variable or array): input of at least one axis.
        axis (int): the axis to sort along.
        descending (bool): largest first.

    Returns:
        Variable: int64 indices of the shape of ``x``, such that
        ``take_along_axis(x, indices, axis)`` is sorted.
    """
    if x.ndim == 0:
        raise ValueError('argsort: x must have at least one axis')
    indices, _ = sort_indices(as_array(x), axis, descending, 'argsort')
    return Variable(indices.astype('q', copy=False), requires_grad=False)


def sort(x, axis=-1, descending=False):
    """Sort ``x`` along ``axis``.

    Differentiable: each element's gradient is the gradient at the
    position it was sorted to (equal elements keep their order). For the
    permutation use :func:`argsort`, or :func:`top_k` for values and
    indices at once.

    Args:
        x (Variable or array): input of at least one axis.
        axis (int): the axis to sort along.
        descending (bool): largest first.

    Returns:
        Variable: the sorted values, of the shape of ``x``.
    """
    from chainer_core.functions.array.take_along_axis import take_along_axis
    if x.ndim == 0:
        raise ValueError('sort: x must have at least one axis')
    indices, axis = sort_indices(as_array(x), axis, descending, 'sort')
    return take_along_axis(x, indices, axis)
