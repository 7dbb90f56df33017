"""broadcast_to and broadcast: repeat arrays along size-1 and new leading
axes."""
from chainer_core._runtime import kernels, rules
from chainer_core import function_node
from chainer_core.utils import type_check


@kernels.declare('broadcast_to')
def _broadcast_to(xp, x, shape):
    """x broadcast to shape (a read-only view where the backend allows)."""
    return xp.broadcast_to(x, shape)


@kernels.declare('broadcast')
def _broadcast(xp, xs):
    """The arrays xs (a tuple) broadcast to their common shape, as a tuple
    (read-only views where the backend allows)."""
    return tuple(xp.broadcast_arrays(*xs))


class BroadcastTo(function_node.FunctionNode):
    """Broadcast to a given shape."""

    def __init__(self, shape):
        self._shape = tuple(shape)

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        x_type = in_types[0]
        ndim = len(self._shape)
        type_check.expect(x_type.ndim <= ndim)
        x_shape = type_check.eval(x_type.shape)
        for i in range(1, min(len(x_shape), ndim) + 1):
            if x_shape[-i] != 1:
                type_check.expect(x_type.shape[-i] == self._shape[-i])

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('broadcast_to', x)(x, self._shape),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.sum import sum_to
        return sum_to(grad_outputs[0], self.inputs[0].shape),


class Broadcast(function_node.FunctionNode):
    """Broadcast several arrays to their common shape."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        type_check.argname(in_types, tuple(
            'args[{}]'.format(i) for i in range(len(in_types))))
        type_check.expect_broadcast_shapes(*[t.shape for t in in_types])

    def forward(self, inputs):
        return kernels.lookup('broadcast', inputs[0])(inputs)

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.sum import sum_to
        return tuple(
            None if grad_outputs[i] is None
            else sum_to(grad_outputs[i], self.inputs[i].shape)
            for i in indexes)


def broadcast(*args):
    """Broadcast the arguments to their common shape (NumPy's rules).

    Args:
        args (Variables or arrays): inputs whose shapes broadcast together;
            their dtypes may differ (each output keeps its input's).

    Returns:
        Variable or tuple of Variable: one output per argument, all of the
        common shape; a single argument gives a single Variable.
    """
    if len(args) == 1:
        from chainer_core.variable import as_variable
        return as_variable(args[0])
    return Broadcast().apply(args)


@rules.kernel('broadcast_to', ('a',), ('shape',))
def _broadcast_to_rule(a, shape):
    """a broadcast to ``shape`` (a itself when it has that shape)."""
    return broadcast_to(a, shape)


def broadcast_to(x, shape):
    """Broadcast ``x`` to ``shape`` (NumPy's broadcasting rules).

    Args:
        x (Variable or array): input.
        shape (tuple of int): target shape; each axis of ``x`` must equal the
            target's or be 1.

    Returns:
        Variable of ``shape``.
    """
    shape = tuple(shape)
    if x.shape == shape:
        from chainer_core.variable import as_variable
        return as_variable(x)
    return BroadcastTo(shape).apply((x,))[0]
