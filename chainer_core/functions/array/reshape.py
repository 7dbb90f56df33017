"""reshape: the same elements in another shape."""
from chainer_core._runtime import graphs, kernels, rules
from chainer_core import function_node
from chainer_core.functions.array._util import is_int
from chainer_core.utils import type_check


@kernels.declare('reshape')
def _reshape(xp, x, shape):
    """x with shape (one entry may be -1); a view where possible."""
    return x.reshape(shape)


def _count_unknown(shape):
    cnt = 0
    for s in shape:
        if not is_int(s):
            raise TypeError('reshape: shape entries must be ints, got {!r}'
                            .format(shape))
        if s == -1:
            cnt += 1
        elif s < 0:
            raise ValueError('reshape: negative size {} in shape {}'.format(
                s, shape))
    if cnt > 1:
        raise ValueError('reshape: at most one -1 in shape, got {}'.format(
            shape))
    return cnt


class Reshape(function_node.FunctionNode):
    """Reshape to a given shape."""

    graph_kernel = graphs.declare(
        'reshape', ('shape',), 'x with shape (a tuple of ints, one of them '
        'may be -1).', derivative='gx0 = reshape(gy0, shape=x0.shape)')

    def __init__(self, shape):
        self._unknown = _count_unknown(tuple(shape))
        self.shape = tuple(int(s) for s in shape)

    def graph_kernel_params(self, inputs):
        return {'shape': self.shape}

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        known = 1
        for s in self.shape:
            if s != -1:
                known *= s
        if self._unknown:
            if known:
                type_check.expect(in_types[0].size % known == 0)
        else:
            type_check.expect(in_types[0].size == known)

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('reshape', x)(x, self.shape),


@rules.kernel('reshape', ('a',), ('shape',))
def _reshape_rule(a, shape):
    """a with ``shape`` (a itself when it has that shape)."""
    return reshape(a, shape)


def reshape(x, shape):
    """Reshape ``x`` to ``shape`` without copying where possible.

    Args:
        x (Variable or array): input.
        shape (tuple of int): new shape, one entry may be -1 (inferred).

    Returns:
        Variable of ``shape``.
    """
    if is_int(shape):
        shape = (shape,)
    if x.shape == tuple(shape):
        from chainer_core.variable import as_variable
        return as_variable(x)
    return Reshape(shape).apply((x,))[0]
