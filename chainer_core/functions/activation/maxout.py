"""maxout: the maximum over groups of consecutive channels."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.activation import _params
from chainer_core.utils import type_check


def _pooled_shape(shape, pool_size, axis):
    return (shape[:axis] + (shape[axis] // pool_size, pool_size)
            + shape[axis + 1:])


def _winners(x, y, pool_size, axis):
    """The grouped view of x and where it equals its group's maximum."""
    grouped = x.reshape(_pooled_shape(x.shape, pool_size, axis))
    return grouped, grouped == y.reshape(y.shape[:axis + 1] + (1,)
                                         + y.shape[axis + 1:])


@kernels.declare('maxout')
def _maxout(xp, x, pool_size, axis):
    """y[..., c, ...] = max of x[..., c*pool_size:(c+1)*pool_size, ...]
    along axis."""
    grouped = x.reshape(_pooled_shape(x.shape, pool_size, axis))
    if pool_size > 16:
        return grouped.max(axis=axis + 1)
    # NumPy reduces a short strided axis element by element; the maximum
    # of the pool_size slices is a few vectorised passes instead.
    index = (slice(None),) * (axis + 1)
    y = grouped[index + (0,)].copy()
    for k in range(1, pool_size):
        xp.maximum(y, grouped[index + (k,)], out=y)
    return y


@kernels.declare('maxout_grad')
def _maxout_grad(xp, x, y, gy, pool_size, axis):
    """gx = gy of its group at every element equal to the group's maximum
    y (ties all receive it), 0 elsewhere."""
    _, win = _winners(x, y, pool_size, axis)
    g = gy.reshape(gy.shape[:axis + 1] + (1,) + gy.shape[axis + 1:])
    return (g * win).reshape(x.shape)


@kernels.declare('maxout_grad_grad')
def _maxout_grad_grad(xp, x, y, g, pool_size, axis):
    """The transpose of maxout_grad: the sum of g over each group's
    maximal elements."""
    grouped, win = _winners(x, y, pool_size, axis)
    g = g.reshape(grouped.shape)
    return (g * win).sum(axis=axis + 1)


class Maxout(function_node.FunctionNode):
    """Maxout over groups of ``pool_size`` along ``axis``."""

    def __init__(self, pool_size, axis=1):
        self.pool_size = pool_size
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        x_type = in_types[0]
        type_check.expect(x_type.dtype.kind == 'f')
        axis = type_check.make_variable(self.axis, 'axis')
        if self.axis >= 0:
            type_check.expect(x_type.ndim > axis)
        else:
            type_check.expect(x_type.ndim >= -axis)
        pool_size = type_check.make_variable(self.pool_size, 'pool_size')
        type_check.expect(x_type.shape[self.axis] % pool_size == 0)

    def forward(self, inputs):
        x, = inputs
        self.axis %= x.ndim
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        return kernels.lookup('maxout', x)(x, self.pool_size, self.axis),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        return MaxoutGrad(x.array, y.array, self.pool_size, self.axis).apply(
            grad_outputs)


class MaxoutGrad(function_node.FunctionNode):
    """Gradient of maxout at a fixed input; linear in ``gy``."""

    def __init__(self, x, y, pool_size, axis):
        self.x, self.y = x, y
        self.pool_size, self.axis = pool_size, axis

    def forward(self, inputs):
        gy, = inputs
        return kernels.lookup('maxout_grad', gy)(
            self.x, self.y, gy, self.pool_size, self.axis),

    def backward(self, indexes, grad_outputs):
        return MaxoutGradGrad(self.x, self.y, self.pool_size,
                              self.axis).apply(grad_outputs)


class MaxoutGradGrad(function_node.FunctionNode):
    """The transpose of :class:`MaxoutGrad` (so each is the other's
    gradient)."""

    def __init__(self, x, y, pool_size, axis):
        self.x, self.y = x, y
        self.pool_size, self.axis = pool_size, axis

    def forward(self, inputs):
        g, = inputs
        return kernels.lookup('maxout_grad_grad', g)(
            self.x, self.y, g, self.pool_size, self.axis),

    def backward(self, indexes, grad_outputs):
        return MaxoutGrad(self.x, self.y, self.pool_size, self.axis).apply(
            grad_outputs)


def maxout(x, pool_size, axis=1):
    """Maxout: the maximum over groups of ``pool_size`` consecutive entries
    along ``axis``.

    With :math:`M` = ``x.shape[axis] // pool_size``, output entry :math:`c`
    along ``axis`` is :math:`\\max_{0 \\le k < p} x_{c p + k}` for
    :math:`p` = ``pool_size``. Applied to the output of a linear layer with
    :math:`M p` units this is a maxout layer. Where several entries of a
    group equal its maximum, each receives the group's gradient.

    Args:
        x (Variable or array): input, float16/32/64; ``x.shape[axis]`` must
            be a multiple of ``pool_size``.
        pool_size (int): the group size, positive.
        axis (int): the axis to group along (negative counts from the end).

    Returns:
        Variable: the shape of ``x`` with ``axis`` divided by ``pool_size``,
        of the dtype of ``x``.
    """
    pool_size = _params.integer(pool_size, 'maxout', 'pool_size')
    if pool_size <= 0:
        raise ValueError('maxout: pool_size must be positive, got {}'.format(
            pool_size))
    axis = _params.integer(axis, 'maxout', 'axis')
    return Maxout(pool_size, axis).apply((x,))[0]
