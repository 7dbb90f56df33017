"""copy: copy an array to a device."""
from chainer_core._runtime import kernels
from chainer_core._runtime.graphs import graph_for_array
from chainer_core._runtime.host import get_device
from chainer_core import function_node
from chainer_core.configuration import config
from chainer_core.functions.array import _util
from chainer_core.utils import type_check
from chainer_core.variable import Variable


@kernels.declare('copy')
def _copy(xp, x):
    """A copy of x on its own device."""
    return x.copy()


class Copy(function_node.FunctionNode):
    """Copy to a device; the gradient is copied back.

    A copy to another device is made before ``apply`` (:func:`copy` needs
    it to see which graph it belongs to) and kept in ``_sent``."""

    _sent = None

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
        if self._sent is not None:
            return self._sent,
        return kernels.lookup('copy', x)(x),

    def _fix_outputs(self, outputs, in_data):
        # The output is on the destination device, not on the input's.
        return outputs

    def backward(self, indexes, grad_outputs):
        return copy(grad_outputs[0], self._in_device),


class _CopyAcross(function_node.FunctionNode):
    """A copy of ``x`` into another graph than x's (those of @numpy and
    native:0 are apart): a node of that graph whose input is the copy
    itself; its backward copies the gradient back and goes on with the
    backward pass from ``x`` in x's graph."""

    label = 'Copy'

    def __init__(self, x, in_device):
        self._x = x
        self._in_device = in_device

    def forward(self, inputs):
        return inputs

    def backward(self, indexes, grad_outputs):
        x = self._x
        gx = copy(grad_outputs[0], self._in_device)
        # The pass running cannot walk x's graph: a leaf accumulates gx as
        # that pass would, anything else starts a pass of x's graph at x.
        # enable_backprop is on where the running pass records its
        # gradients (double backprop); gx and the pass at x do too.
        if x.creator_node is None:
            g = x.grad_var
            x.grad_var = gx if g is None else g + gx
        else:
            x._graph_of().backward(x, gx, False, config.enable_backprop,
                                   None, None)
        # The stand-in input takes no gradient.
        return None,


def copy(x, dst):
    """Copy ``x`` to the device ``dst``.

    The output never shares memory with ``x``, also when ``dst`` is the
    device ``x`` is on. The gradient is copied back to the device of ``x``,
    also between devices whose graphs are apart (@numpy and native:0):
    ``backward`` goes on there, though :func:`chainer_core.grad` does not
    reach through such a copy.

    Args:
        x (Variable or array): input.
        dst: a device specifier (``'@numpy'``, ``'@cupy:0'``, ``-1`` for
            the CPU, ``N >= 0`` for GPU ``N``, or a device object).

    Returns:
        Variable: the copy, on ``dst``.
    """
    node = Copy(dst)
    data = x.array if isinstance(x, Variable) else x
    try:
        in_device = _util.device_of(data)
    except TypeError:
        in_device = None  # not an array: apply reports it
    if in_device is None or in_device.name == node._out_device.name:
        return node.apply((x,))[0]
    sent = node._out_device.send(data)
    if graph_for_array(sent) is graph_for_array(data):
        node._sent = sent
        return node.apply((x,))[0]
    requires_grad = isinstance(x, Variable) and x.requires_grad
    return _CopyAcross(x, in_device).apply(
        (Variable(sent, requires_grad=requires_grad),))[0]
