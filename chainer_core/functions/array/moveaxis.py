"""moveaxis: move axes to new positions."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.utils import type_check


@kernels.declare('moveaxis')
def _moveaxis(xp, x, source, destination):
    """x with the axes source (a tuple) moved to destination (a tuple)."""
    return xp.moveaxis(x, source, destination)


class Moveaxis(function_node.FunctionNode):
    """Move axes to new positions; the other axes keep their order."""

    def __init__(self, source, destination):
        self.source = _util.check_axes(source, 'moveaxis', 'source')
        self.destination = _util.check_axes(destination, 'moveaxis',
                                            'destination')
        if len(self.source) != len(self.destination):
            raise ValueError(
                'moveaxis: source {} and destination {} must have the same '
                'number of elements'.format(source, destination))

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        x_type = in_types[0]
        for a in self.source:
            _util.expect_axis(x_type, a, 'source')
        for a in self.destination:
            _util.expect_axis(x_type, a, 'destination')
        ndim = type_check.eval(x_type.ndim)
        for name, axes in (('source', self.source),
                           ('destination', self.destination)):
            if len({a % ndim for a in axes}) != len(axes):
                raise type_check.InvalidType(
                    'no repeated axis in {}'.format(name),
                    '{} = {} for x.ndim = {}'.format(name, axes, ndim))

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('moveaxis', x)(x, self.source,
                                             self.destination),

    def backward(self, indexes, grad_outputs):
        return Moveaxis(self.destination, self.source).apply(grad_outputs)


def moveaxis(x, source, destination):
    """Move the axes ``source`` of ``x`` to the positions ``destination``.

    Args:
        x (Variable or array): input.
        source (int or tuple of int): the axes to move.
        destination (int or tuple of int): their positions in the output,
            one per axis of ``source``.

    Returns:
        Variable: the input with its axes permuted; the axes not moved keep
        their relative order.
    """
    return Moveaxis(source, destination).apply((x,))[0]
