"""copy: copy an array to a device."""
from chainer_core._runtime import kernels
from chainer_core._runtime.host import get_device
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.utils import type_check


@kernels.declare('copy')
def _copy(xp, x):
    """A copy of x on its own device."""
    return x.copy()


class Copy(function_node.FunctionNode):
    """Copy to a device; the gradient is copied back."""

    def __init__(self, dst):
        try:
            self._out_device = get_device(dst)
        except (TypeError, ValueError) as e:
            raise type(e)('copy: dst {!r} is not a device: {}'.format(
                dst, e)) from None

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))

    def forward(self, inputs):
        x, = inputs
        self._in_device = _util.device_of(x)
        if self._in_device.name == self._out_device.name:
            return kernels.lookup('copy', x)(x),
        return self._out_device.send(x),

    def backward(self, indexes, grad_outputs):
        return Copy(self._in_device).apply(grad_outputs)


def copy(x, dst):
    """Copy ``x`` to the device ``dst``.

    The output never shares memory with ``x``, also when ``dst`` is the
    device ``x`` is on. The gradient is copied back to the device of ``x``.

    Args:
        x (Variable or array): input.
        dst: a device specifier (``'@numpy'``, ``'@cupy:0'``, ``-1`` for
            the CPU, ``N >= 0`` for GPU ``N``, or a device object).

    Returns:
        Variable: the copy, on ``dst``.
    """
    return Copy(dst).apply((x,))[0]
