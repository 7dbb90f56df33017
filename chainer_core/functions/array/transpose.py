"""transpose: permute the axes."""
from chainer_core._runtime import graphs, kernels, rules
from chainer_core import function_node
from chainer_core.functions.array._util import is_int
from chainer_core.utils import type_check


@kernels.declare('transpose')
def _transpose(xp, x, axes):
    """x with axes permuted (None: reversed); a view where possible."""
    return x.transpose(axes)


class Transpose(function_node.FunctionNode):
    """Permute the axes of an array."""

    graph_kernel = graphs.declare(
        'transpose', ('axes',), 'x with its axes permuted by axes (a tuple '
        'of ints, negative ones counting from the end; None: reversed).',
        derivative='gx0 = untranspose(gy0, axes=axes)')

    def __init__(self, axes=None):
        if axes is not None:
            axes = tuple(axes)
            if not all(is_int(a) for a in axes):
                raise TypeError('transpose: axes must be ints, got {!r}'
                                .format(axes))
            axes = tuple(int(a) for a in axes)
        self.axes = axes

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        if self.axes is not None:
            type_check.expect(in_types[0].ndim == type_check.make_variable(
                len(self.axes), 'len(axes)'))
            ndim = len(self.axes)
            if sorted(a % ndim if -ndim <= a < ndim else a
                      for a in self.axes) != list(range(ndim)):
                raise type_check.InvalidType(
                    'axes is a permutation of range({})'.format(ndim),
                    'axes = {}'.format(self.axes))

    def graph_kernel_params(self, inputs):
        return {'axes': self.axes}

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('transpose', x)(x, self.axes),


@rules.kernel('untranspose', ('a',), ('axes',))
def _untranspose_rule(a, axes):
    """a with the inverse of the permutation ``axes`` applied (as
    transpose takes it; None reverses the axes)."""
    if axes is None:
        return transpose(a)
    ndim = len(axes)
    inv = [0] * ndim
    for i, ax in enumerate(axes):
        inv[ax % ndim] = i
    return Transpose(tuple(inv)).apply((a,))[0]


def transpose(x, axes=None):
    """Permute the axes of ``x``.

    Args:
        x (Variable or array): input.
        axes (tuple of int): the permutation; None reverses the axes.

    Returns:
        Variable: output with ``y.shape[i] == x.shape[axes[i]]``.
    """
    return Transpose(axes).apply((x,))[0]
