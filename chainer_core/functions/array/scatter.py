"""scatter: write values into an array along an axis by index."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.functions.array.take_along_axis import check_index_range
from chainer_core.utils import type_check


def _positions(xp, indices, axis):
    """The index tuple of the elements of x that indices addresses along
    axis (indices' own position along the other axes)."""
    index = []
    for d, n in enumerate(indices.shape):
        if d == axis:
            index.append(indices)
        else:
            at = [1] * indices.ndim
            at[d] = n
            index.append(xp.arange(n).reshape(at))
    return tuple(index)


@kernels.declare('scatter_source')
def _scatter_source(xp, shape, indices, axis):
    """For each element of an array of shape: the flat position in indices
    of the update written to it, or -1 where none is. Where indices
    addresses one element several times, one of the updates (the same
    one for the values and the gradients) is chosen."""
    source = xp.full(shape, -1, dtype='q')
    source[_positions(xp, indices, axis)] = xp.arange(
        indices.size, dtype='q').reshape(indices.shape)
    return source


@kernels.declare('scatter')
def _scatter(xp, x, source, updates):
    """x with the updates (flat, in the order of source's positions)
    written where source is non-negative."""
    if updates.size == 0:
        return x.copy()
    return xp.where(source >= 0,
                    updates.reshape(-1)[xp.maximum(source, 0)], x)


@kernels.declare('scatter_winners')
def _scatter_winners(xp, source, indices, axis):
    """Whether each update of indices is the one written (source as
    computed by scatter_source)."""
    own = xp.arange(indices.size, dtype='q').reshape(indices.shape)
    return source[_positions(xp, indices, axis)] == own


class Scatter(function_node.FunctionNode):
    """Write updates along an axis."""

    def __init__(self, axis):
        self.axis = _util.check_int(axis, 'scatter', 'axis')

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 3)
        type_check.argname(in_types, ('x', 'indices', 'updates'))
        x_type, i_type, u_type = in_types
        _util.expect_integer_dtype(i_type, 'indices')
        type_check.expect(
            i_type.ndim == x_type.ndim,
            u_type.dtype == x_type.dtype,
            u_type.shape == i_type.shape,
        )
        _util.expect_axis(x_type, self.axis, 'axis')
        ndim = type_check.eval(x_type.ndim)
        axis = self.axis % ndim
        for d in range(ndim):
            if d != axis:
                type_check.expect(i_type.shape[d] <= x_type.shape[d])

    def forward(self, inputs):
        x, indices, updates = inputs
        self.axis %= x.ndim
        check_index_range(indices, x.shape[self.axis], 'scatter')
        source = kernels.lookup('scatter_source', indices)(
            x.shape, indices, self.axis)
        self._indices = indices
        self._source = source
        return kernels.lookup('scatter', x)(x, source, updates),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.take_along_axis import gather
        from chainer_core.functions.array.where import where
        gy, = grad_outputs
        zero = _util.zeros(gy.array, (), gy.dtype)
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(where(self._source < 0, gy, zero))
            elif i == 2:
                winners = kernels.lookup('scatter_winners', self._source)(
                    self._source, self._indices, self.axis)
                ret.append(where(winners,
                                 gather(gy, self.axis, self._indices), zero))
            else:
                ret.append(None)
        return tuple(ret)


def scatter(x, axis, indices, updates):
    """Write ``updates`` into a copy of ``x`` along ``axis``, as
    ``torch.Tensor.scatter``.

    For 3-D inputs and ``axis == 1``: ``y[i, indices[i, j, k], k] =
    updates[i, j, k]``; elements no index addresses keep ``x``'s value.
    ``indices`` has the ndim of ``x`` and along the other axes a size no
    larger than ``x``'s. Where several updates address one element, one of
    them is written (which one depends on the backend) and only that one
    receives a gradient.

    Args:
        x (Variable or array): the base array.
        axis (int): the axis the indices run along.
        indices (Variable, array or list): integer array, values in
            ``[-x.shape[axis], x.shape[axis])``.
        updates (Variable, array or scalar): the values, of ``x``'s dtype;
            broadcast to the shape of ``indices``.

    Returns:
        Variable: output of the shape of ``x``; differentiable in ``x``
        (where nothing was written) and in ``updates``.
    """
    import numbers
    from chainer_core.functions.array.broadcast import broadcast_to
    from chainer_core.variable import as_array
    indices = _util.as_index_array(indices, x)
    i_shape = tuple(indices.shape)
    if isinstance(updates, numbers.Number):
        ref = as_array(x)
        updates = _util.xp_of(ref).asarray(updates, dtype=ref.dtype)
    if tuple(updates.shape) != i_shape:
        try:
            updates = broadcast_to(updates, i_shape)
        except TypeError:
            raise ValueError(
                'scatter: updates of shape {} cannot be broadcast to the '
                'shape of indices {}'.format(tuple(updates.shape), i_shape)) \
                from None
    return Scatter(axis).apply((x, indices, updates))[0]
