"""Sums: sum over axes, and sum_to a (broadcast-compatible) shape."""
from chainer_core._runtime import graphs, kernels, rules
from chainer_core import function_node
from chainer_core.functions.array._util import is_int
from chainer_core.utils import type_check
from chainer_core.utils.array import sum_to as _sum_to_array


@kernels.declare('sum')
def _sum(xp, x, axis, keepdims):
    """Sum of x over axis (None, int or tuple of ints)."""
    return xp.asarray(x.sum(axis=axis, keepdims=keepdims))


@kernels.declare('sum_to')
def _sum_to(xp, x, shape):
    """Sum x over its broadcast axes so that the result has shape."""
    return _sum_to_array(x, shape)


def _normalize_axis(axis, ndim, op):
    if axis is None:
        return None
    axes = (axis,) if is_int(axis) else tuple(axis)
    out = []
    for a in axes:
        if not is_int(a):
            raise TypeError('{}: axis must be None, an int or a tuple of '
                            'ints, got {!r}'.format(op, axis))
        if not -ndim <= a < ndim:
            raise ValueError('{}: axis {} is out of bounds for an input of '
                             'ndim {}'.format(op, a, ndim))
        out.append(int(a) % ndim)
    if len(set(out)) != len(out):
        raise ValueError('{}: duplicate value in axis {!r}'.format(op, axis))
    return tuple(sorted(out))


class Sum(function_node.FunctionNode):
    """Sum over axes."""

    graph_kernel = graphs.declare(
        'sum', ('axis', 'keepdims'), 'Sum of x over axis (None: all axes, '
        'or a tuple of distinct axes in [0, x.ndim)), keeping the summed '
        'axes with length 1 if keepdims.',
        derivative='gx0 = unsum(gy0, axis=axis, keepdims=keepdims, '
                   'shape=x0.shape)')

    def __init__(self, axis=None, keepdims=False):
        if is_int(axis):
            axis = int(axis)
        elif axis is not None and not isinstance(axis, (tuple, list)):
            raise TypeError('sum: axis must be None, an int or a tuple of '
                            'ints, got {}'.format(type(axis).__name__))
        self.axis = axis
        self.keepdims = keepdims

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')
        if self.axis is not None:
            axes = (self.axis,) if isinstance(self.axis, int) else self.axis
            for a in axes:
                axis = type_check.make_variable(a, 'axis')
                if a >= 0:
                    type_check.expect(in_types[0].ndim > axis)
                else:
                    type_check.expect(-in_types[0].ndim <= axis)

    def graph_kernel_params(self, inputs):
        return {'axis': _normalize_axis(self.axis, inputs[0].ndim, 'sum'),
                'keepdims': self.keepdims}

    def forward(self, inputs):
        x, = inputs
        self.axis = _normalize_axis(self.axis, x.ndim, 'sum')
        return kernels.lookup('sum', x)(x, self.axis, self.keepdims),


@rules.kernel('unsum', ('gy',), ('axis', 'keepdims', 'shape'))
def _unsum_rule(gy, axis, keepdims, shape):
    """gy, the gradient of a sum over ``axis`` (as normalised by sum's
    graph kernel) of an array of ``shape``, broadcast back to ``shape``."""
    from chainer_core.functions.array.broadcast import broadcast_to
    from chainer_core.functions.array.reshape import reshape
    if not keepdims and axis is not None:
        kept = list(gy.shape)
        for a in axis:
            kept.insert(a, 1)
        gy = reshape(gy, tuple(kept))
    elif not keepdims:
        gy = reshape(gy, (1,) * len(shape))
    return broadcast_to(gy, shape)


@rules.kernel('sum', ('a',), ('axis', 'keepdims'))
def _sum_rule(a, axis, keepdims):
    """The sum of a over axis (None, an int or a tuple of ints)."""
    return sum(a, axis, keepdims)


@rules.kernel('sum_to', ('a',), ('shape',))
def _sum_to_rule(a, shape):
    """a summed over the axes along which ``shape`` broadcasts to a's
    shape (a itself when the shapes are equal)."""
    return sum_to(a, shape)


class SumTo(function_node.FunctionNode):
    """Sum over the axes along which ``shape`` was broadcast."""

    def __init__(self, shape):
        self._shape = tuple(shape)

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        x_type = in_types[0]
        ndim = len(self._shape)
        type_check.expect(x_type.ndim >= ndim)
        for i in range(1, ndim + 1):
            if self._shape[-i] != 1:
                type_check.expect(x_type.shape[-i] == self._shape[-i])

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('sum_to', x)(x, self._shape),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.broadcast import broadcast_to
        return broadcast_to(grad_outputs[0], self.inputs[0].shape),


def sum(x, axis=None, keepdims=False):
    """Sum of the elements over the given axes.

    Args:
        x (Variable or array): input.
        axis (None, int or tuple of int): axes to sum over (None: all).
        keepdims (bool): keep the summed axes with size 1.

    Returns:
        Variable: the sum; shape is ``x.shape`` without (or with size-1)
        ``axis``.
    """
    return Sum(axis, keepdims).apply((x,))[0]


def sum_to(x, shape):
    """Sum ``x`` over broadcast axes so the result has ``shape``.

    The inverse of :func:`broadcast_to` for gradients: each output element
    is the sum of the input elements broadcast from it.

    Args:
        x (Variable or array): input of a shape broadcast from ``shape``.
        shape (tuple of int): target shape.

    Returns:
        Variable of ``shape``.
    """
    if x.shape == tuple(shape):
        from chainer_core.variable import as_variable
        return as_variable(x)
    return SumTo(shape).apply((x,))[0]
