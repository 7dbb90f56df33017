"""top_k: the k largest (or smallest) elements along an axis."""
from chainer_core._runtime import kernels
from chainer_core.functions.array import _util
from chainer_core.functions.array.sort import sort_indices
from chainer_core.variable import Variable, as_array


@kernels.declare('top_k_unsorted')
def _top_k_unsorted(xp, x, k, axis, largest):
    """Indices of k largest (or smallest) elements of x along axis, in no
    particular order."""
    n = x.shape[axis]
    if largest:
        part = xp.argpartition(x, n - k, axis=axis)
        return xp.take(part, xp.arange(n - k, n), axis=axis)
    part = xp.argpartition(x, k - 1, axis=axis)
    return xp.take(part, xp.arange(k), axis=axis)


def top_k(x, k, axis=-1, largest=True, sorted=True):
    """The ``k`` largest (or smallest) elements of ``x`` along ``axis``,
    and where they are.

    Differentiable in the values: each selected element receives the
    gradient of its value, the others zero. Among equal elements the
    earlier ones are selected first.

    Args:
        x (Variable or array): input of at least one axis.
        k (int): how many, ``0 <= k <= x.shape[axis]``.
        axis (int): the axis to select along.
        largest (bool): the largest elements (else the smallest).
        sorted (bool): return them in order, largest (or smallest) first;
            with False the order is unspecified.

    Returns:
        tuple: ``(values, indices)``; Variables of the shape of ``x`` with
        ``k`` along ``axis``, the values of ``x``'s dtype and the int64
        indices (not differentiable) with
        ``take_along_axis(x, indices, axis) == values``.
    """
    from chainer_core.functions.array.take_along_axis import take_along_axis
    k = _util.check_int(k, 'top_k', 'k')
    if x.ndim == 0:
        raise ValueError('top_k: x must have at least one axis')
    array = as_array(x)
    axis = _util.normalize_axis(_util.check_int(axis, 'top_k', 'axis'),
                                array.ndim, 'top_k')
    n = array.shape[axis]
    if not 0 <= k <= n:
        raise ValueError('top_k: k must be in [0, {}] (the size of axis {}), '
                         'got {}'.format(n, axis, k))
    if sorted or k == 0:
        order, _ = sort_indices(array, axis, largest, 'top_k')
        indices = order[(slice(None),) * axis + (slice(0, k),)]
    else:
        indices = kernels.lookup('top_k_unsorted', array)(
            array, k, axis, bool(largest))
    indices = indices.astype('q', copy=False)
    return (take_along_axis(x, indices, axis),
            Variable(indices, requires_grad=False))
