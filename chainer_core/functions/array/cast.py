"""cast: convert to another dtype."""
import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.configuration import config
from chainer_core.utils import type_check


@kernels.declare('cast')
def _cast(xp, x, dtype):
    """x converted to dtype (x itself if it already has it)."""
    return x.astype(dtype, copy=False)


class Cast(function_node.FunctionNode):
    """Convert to a dtype."""

    def __init__(self, typ):
        try:
            self.type = numpy.dtype(typ)
        except TypeError:
            raise TypeError('cast: typ must be a dtype, got {!r}'.format(
                typ)) from None

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))

    def forward(self, inputs):
        x, = inputs
        self._in_type = x.dtype
        return kernels.lookup('cast', x)(x, self.type),

    def backward(self, indexes, grad_outputs):
        if self._in_type.kind != 'f':
            return None,
        return cast(grad_outputs[0], self._in_type),


def cast(x, typ):
    """Convert ``x`` to the dtype ``typ``.

    The gradient is converted back to the input's dtype; an input of a
    non-float dtype gets no gradient. Outside ``enable_backprop`` a cast to
    the dtype ``x`` already has returns it unchanged.

    Args:
        x (Variable or array): input.
        typ (dtype or str): the output dtype.

    Returns:
        Variable: ``x`` as ``typ``.
    """
    if x.dtype == typ and not config.enable_backprop:
        from chainer_core.variable import as_variable
        return as_variable(x)
    return Cast(typ).apply((x,))[0]
