"""take_along_axis and gather: pick elements along an axis by index."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.utils import type_check


@kernels.declare('take_along_axis')
def _take_along_axis(xp, x, indices, axis):
    """numpy.take_along_axis(x, indices, axis): x and indices have one
    ndim and broadcast together except along axis."""
    return xp.take_along_axis(x, indices, axis)


@kernels.declare('take_along_axis_grad')
def _take_along_axis_grad(xp, gy, indices, axis, shape):
    """The gradient of take_along_axis for an input of shape: gy added at
    the positions it was taken from (repeated positions sum up; axes that
    were broadcast are summed over)."""
    gx = xp.zeros(shape, dtype=gy.dtype)
    index = []
    for d, n in enumerate(shape):
        if d == axis:
            index.append(indices)
        else:
            at = [1] * len(shape)
            at[d] = n
            index.append(xp.arange(n).reshape(at))
    xp.add.at(gx, tuple(index), gy)
    return gx


def check_index_range(indices, size, op):
    """ValueError naming ``op`` if ``indices`` holds a value outside
    ``[-size, size)``."""
    if indices.size:
        lo, hi = int(indices.min()), int(indices.max())
        if lo < -size or hi >= size:
            raise ValueError(
                '{}: indices holds {} which is out of range for an axis of '
                'size {}'.format(op, lo if lo < -size else hi, size))


class TakeAlongAxis(function_node.FunctionNode):
    """Pick elements along an axis."""

    def __init__(self, axis):
        self.axis = _util.check_int(axis, 'take_along_axis', 'axis')

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('x', 'indices'))
        x_type, i_type = in_types
        _util.expect_integer_dtype(i_type, 'indices')
        type_check.expect(i_type.ndim == x_type.ndim)
        _util.expect_axis(x_type, self.axis, 'axis')
        ndim = type_check.eval(x_type.ndim)
        axis = self.axis % ndim
        for d in range(ndim):
            if d != axis:
                type_check.expect_broadcast_shapes(x_type.shape[d:d + 1],
                                                   i_type.shape[d:d + 1])

    def forward(self, inputs):
        x, indices = inputs
        self.axis %= x.ndim
        check_index_range(indices, x.shape[self.axis], 'take_along_axis')
        self._indices = indices
        return kernels.lookup('take_along_axis', x)(x, indices, self.axis),

    def backward(self, indexes, grad_outputs):
        if 0 not in indexes:
            return None,
        gx, = TakeAlongAxisGrad(self._indices, self.axis,
                                self.inputs[0].shape).apply(grad_outputs)
        return (gx,) + (None,) * (len(indexes) - 1)


class TakeAlongAxisGrad(function_node.FunctionNode):
    """Scatter-add a gradient back along an axis (linear in it)."""

    def __init__(self, indices, axis, shape):
        self._indices = indices
        self.axis = axis
        self._shape = shape

    def forward(self, inputs):
        gy, = inputs
        return kernels.lookup('take_along_axis_grad', gy)(
            gy, self._indices, self.axis, self._shape),

    def backward(self, indexes, grad_outputs):
        return TakeAlongAxis(self.axis).apply(
            (grad_outputs[0], self._indices))[0],


def take_along_axis(x, indices, axis=-1):
    """Pick elements of ``x`` along ``axis`` (as ``numpy.take_along_axis``).

    For 3-D inputs and ``axis == 1``: ``y[i, j, k] = x[i, indices[i, j,
    k], k]``. ``x`` and ``indices`` have one ndim and broadcast together
    along the other axes. Elements picked several times receive the sum of
    their gradients.

    Args:
        x (Variable or array): input.
        indices (Variable, array or list): integer array, values in
            ``[-x.shape[axis], x.shape[axis])``.
        axis (int or None): the axis to pick along; None works on the
            flattened ``x`` (``indices`` must then be 1-D).

    Returns:
        Variable: output of the broadcast shape, with ``indices``' size
        along ``axis``; differentiable in ``x``.
    """
    indices = _util.as_index_array(indices, x)
    if axis is None:
        from chainer_core.functions.array.reshape import reshape
        x = reshape(x, (x.size,))
        axis = 0
    return TakeAlongAxis(axis).apply((x, indices))[0]


def gather(x, axis, indices):
    """Pick elements of ``x`` along ``axis``, as ``torch.gather``.

    For 3-D inputs and ``axis == 1``: ``y[i, j, k] = x[i, indices[i, j,
    k], k]``. Unlike :func:`take_along_axis` nothing broadcasts:
    ``indices`` has the ndim of ``x`` and along every other axis a size no
    larger than ``x``'s (only the leading part of ``x`` is read there).

    Args:
        x (Variable or array): input.
        axis (int): the axis to pick along.
        indices (Variable, array or list): integer array.

    Returns:
        Variable: output of the shape of ``indices``; differentiable in
        ``x``.
    """
    axis = _util.check_int(axis, 'gather', 'axis')
    indices = _util.as_index_array(indices, x)
    x_shape, i_shape = tuple(x.shape), tuple(indices.shape)
    if len(x_shape) != len(i_shape):
        raise ValueError('gather: indices must have the ndim of x ({}), got '
                         'shape {}'.format(len(x_shape), i_shape))
    axis = _util.normalize_axis(axis, len(x_shape), 'gather')
    if any(d != axis and i > n
           for d, (n, i) in enumerate(zip(x_shape, i_shape))):
        raise ValueError(
            'gather: indices of shape {} is larger than x of shape {} along '
            'an axis other than axis {}'.format(i_shape, x_shape, axis))
    if any(d != axis and i < n
           for d, (n, i) in enumerate(zip(x_shape, i_shape))):
        from chainer_core.functions.array.get_item import get_item
        x = get_item(x, tuple(slice(None) if d == axis else slice(0, i)
                              for d, i in enumerate(i_shape)))
    return TakeAlongAxis(axis).apply((x, indices))[0]
