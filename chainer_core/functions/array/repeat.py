"""repeat: repeat each element along an axis."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.utils import type_check


@kernels.declare('repeat')
def _repeat(xp, x, repeats, axis):
    """numpy.repeat(x, repeats, axis); repeats is an int or a tuple."""
    return xp.repeat(x, repeats, axis)


@kernels.declare('repeat_grad')
def _repeat_grad(xp, gy, repeats, axis, shape):
    """The gradient of repeat for an input of shape: each element gets the
    sum of the gradients of its copies (axis None: over the flattened
    input)."""
    if axis is None:
        gy = gy.reshape(-1)
        axis = 0
        n = 1
        for s in shape:
            n *= s
    else:
        n = shape[axis]
    if isinstance(repeats, int):
        # Copies of one element are adjacent: fold them into a new axis.
        split = gy.shape[:axis] + (n, repeats) + gy.shape[axis + 1:]
        gx = gy.reshape(split).sum(axis=axis + 1)
    else:
        owner = xp.repeat(xp.arange(n), xp.asarray(repeats))
        gx = xp.zeros(gy.shape[:axis] + (n,) + gy.shape[axis + 1:],
                      dtype=gy.dtype)
        xp.add.at(gx, (slice(None),) * axis + (owner,), gy)
    return gx.reshape(shape)


class Repeat(function_node.FunctionNode):
    """Repeat each element along an axis."""

    def __init__(self, repeats, axis=None):
        if _util.is_int(repeats):
            repeats = (int(repeats),)
        elif isinstance(repeats, (tuple, list)) and repeats and all(
                _util.is_int(r) for r in repeats):
            repeats = tuple(int(r) for r in repeats)
        else:
            raise TypeError('repeat: repeats must be an int or a non-empty '
                            'tuple of ints, got {!r}'.format(repeats))
        if any(r < 0 for r in repeats):
            raise ValueError('repeat: repeats must not be negative, got {!r}'
                             .format(repeats))
        self.repeats = repeats
        if axis is not None:
            axis = _util.check_int(axis, 'repeat', 'axis')
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        x_type = in_types[0]
        if self.axis is not None:
            _util.expect_axis(x_type, self.axis, 'axis')
        if len(self.repeats) > 1:
            n = type_check.make_variable(len(self.repeats), 'len(repeats)')
            if self.axis is None:
                type_check.expect(x_type.size == n)
            else:
                type_check.expect(x_type.shape[self.axis] == n)

    def _param(self):
        return self.repeats[0] if len(self.repeats) == 1 else self.repeats

    def forward(self, inputs):
        x, = inputs
        if self.axis is not None:
            self.axis %= x.ndim
        return kernels.lookup('repeat', x)(x, self._param(), self.axis),

    def backward(self, indexes, grad_outputs):
        return RepeatGrad(self.repeats, self.axis,
                          self.inputs[0].shape).apply(grad_outputs)


class RepeatGrad(function_node.FunctionNode):
    """Sum the gradients of the copies of each element."""

    def __init__(self, repeats, axis, shape):
        self.repeats = repeats
        self.axis = axis
        self._shape = shape

    def forward(self, inputs):
        gy, = inputs
        repeats = self.repeats[0] if len(self.repeats) == 1 else self.repeats
        return kernels.lookup('repeat_grad', gy)(gy, repeats, self.axis,
                                                 self._shape),

    def backward(self, indexes, grad_outputs):
        return Repeat(self.repeats, self.axis).apply(grad_outputs)


def repeat(x, repeats, axis=None):
    """Repeat each element of ``x`` along ``axis`` (as ``numpy.repeat``).

    Args:
        x (Variable or array): input.
        repeats (int or tuple of int): the number of copies of every
            element, or one number per element along ``axis``.
        axis (int or None): the axis along which to repeat; None repeats
            the elements of the flattened input.

    Returns:
        Variable: the output; with ``axis`` None it is 1-D.
    """
    return Repeat(repeats, axis).apply((x,))[0]
