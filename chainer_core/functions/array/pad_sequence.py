"""pad_sequence: stack sequences of different lengths, padded."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.utils import type_check


@kernels.declare('pad_sequence')
def _pad_sequence(xp, xs, length, padding):
    """y of shape (len(xs), length) + xs[0].shape[1:], filled with padding,
    with y[i, :len(xs[i])] = xs[i]."""
    y = xp.full((len(xs), length) + xs[0].shape[1:], padding,
                dtype=xs[0].dtype)
    for i, x in enumerate(xs):
        y[i, :x.shape[0]] = x
    return y


class PadSequence(function_node.FunctionNode):
    """Stack sequences along a new first axis, padding them to a length."""

    def __init__(self, length, padding):
        if length is not None:
            length = _util.check_int(length, 'pad_sequence', 'length')
            if length < 0:
                raise ValueError('pad_sequence: length must not be negative, '
                                 'got {}'.format(length))
        self.length = length
        self.padding = padding

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        type_check.argname(in_types, _util.input_names(in_types, 'xs'))
        x0 = in_types[0]
        type_check.expect(x0.ndim > 0)
        for t in in_types:
            type_check.expect(t.dtype == x0.dtype, t.ndim == x0.ndim,
                              t.shape[1:] == x0.shape[1:])
            if self.length is not None:
                type_check.expect(
                    t.shape[0] <= type_check.make_variable(self.length,
                                                           'length'))

    def forward(self, inputs):
        length = self.length
        if length is None:
            length = max(x.shape[0] for x in inputs)
        return kernels.lookup('pad_sequence', inputs[0])(
            inputs, length, self.padding),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.get_item import get_item
        gy, = grad_outputs
        return tuple(get_item(gy, (i, slice(0, self.inputs[i].shape[0])))
                     for i in indexes)


def pad_sequence(xs, length=None, padding=0):
    """Stack sequences of different lengths into one padded array.

    Args:
        xs (list or tuple of Variable or array): sequences of shape
            ``(L_i, ...)``, of one dtype and one shape after the first
            axis.
        length (int or None): the length of the output's second axis, at
            least every ``L_i``; None takes the longest.
        padding (scalar): the value of the padded positions.

    Returns:
        Variable: output of shape ``(len(xs), length, ...)`` with
        ``y[i, :L_i] == xs[i]``.
    """
    if not isinstance(xs, (list, tuple)):
        raise TypeError('pad_sequence: xs must be a list or tuple of arrays, '
                        'got {}'.format(type(xs).__name__))
    return PadSequence(length, padding).apply(tuple(xs))[0]
