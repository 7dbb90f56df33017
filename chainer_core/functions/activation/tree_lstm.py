"""tree_lstm: the N-ary tree LSTM cell."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.activation import _cell
from chainer_core.functions.activation.lstm import _check_cell
from chainer_core.utils import type_check


def _blocks(x, n):
    """The n gates of x, consecutive blocks along axis 1."""
    r = x.reshape((x.shape[0], n, x.shape[1] // n) + x.shape[2:])
    return tuple(r[:, k] for k in range(n))


@kernels.declare('tree_lstm')
def _tree_lstm(xp, cs, x):
    """(c, h) for the cells cs = (c_1, ..., c_N): with a, i, o, f_1, ...,
    f_N the N + 3 consecutive blocks of x along axis 1:
    c = tanh(a) sigmoid(i) + sum_n sigmoid(f_n) c_n,
    h = sigmoid(o) tanh(c)."""
    widened = _cell.widen(x, *cs)
    xw, cw = widened[0], widened[1:]
    gates = _blocks(xw, 3 + len(cs))
    sig = _cell.sigmoid
    c = xp.tanh(gates[0]) * sig(xp, gates[1])
    for f, cn in zip(gates[3:], cw):
        c = c + sig(xp, f) * cn
    h = sig(xp, gates[2]) * xp.tanh(c)
    return c.astype(x.dtype, copy=False), h.astype(x.dtype, copy=False)


@kernels.declare('tree_lstm_grad')
def _tree_lstm_grad(xp, cs, x, gc, gh):
    """(gc_1, ..., gc_N, gx): the gradients of tree_lstm's inputs given
    those of its outputs, gc and gh; either may be None (zero)."""
    widened = _cell.widen(x, gc, gh, *cs)
    xw, gc, gh, cw = widened[0], widened[1], widened[2], widened[3:]
    gates = _blocks(xw, 3 + len(cs))
    sig = _cell.sigmoid
    a = xp.tanh(gates[0])
    i = sig(xp, gates[1])
    o = sig(xp, gates[2])
    fs = [sig(xp, f) for f in gates[3:]]
    c = a * i
    for f, cn in zip(fs, cw):
        c = c + f * cn
    co = xp.tanh(c)
    gct = xp.zeros_like(c) if gc is None else gc
    if gh is None:
        go = xp.zeros_like(o)
    else:
        gct = gct + gh * o * (1 - co * co)
        go = gh * co * o * (1 - o)
    grads = [gct * i * (1 - a * a), gct * a * i * (1 - i), go]
    grads += [gct * cn * f * (1 - f) for f, cn in zip(fs, cw)]
    gx = xp.stack(grads, axis=1).reshape(x.shape).astype(x.dtype, copy=False)
    return tuple((gct * f).astype(x.dtype, copy=False) for f in fs) + (gx,)


class TreeLSTM(function_node.FunctionNode):
    """Tree LSTM cell: inputs (c_1, ..., c_N, x), outputs (c, h)."""

    def check_type_forward(self, in_types):
        n = len(in_types) - 1
        type_check.expect(in_types.size() >= 2)
        type_check.argname(in_types, tuple(
            'c{}'.format(k + 1) for k in range(n)) + ('x',))
        x_type, c1_type = in_types[-1], in_types[0]
        _check_cell(c1_type, x_type, 3 + n)
        type_check.expect(x_type.shape[0] == c1_type.shape[0])
        for c_type in in_types[1:-1]:
            type_check.expect(c_type.dtype == c1_type.dtype,
                              c_type.shape == c1_type.shape)

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        x = inputs[-1]
        return kernels.lookup('tree_lstm', x)(inputs[:-1], x)

    def backward(self, indexes, grad_outputs):
        inputs = self.get_retained_inputs()
        gc, gh = grad_outputs
        grads = TreeLSTMGrad(len(inputs) - 1, gc is not None,
                             gh is not None).apply(
            inputs + tuple(g for g in (gc, gh) if g is not None))
        return tuple(grads[k] for k in indexes)


class TreeLSTMGrad(function_node.FunctionNode):
    """``(gc_1, ..., gc_N, gx)`` of tree_lstm; first order only."""

    def __init__(self, n_cells, has_gc, has_gh):
        self.n_cells = n_cells
        self.has_gc = has_gc
        self.has_gh = has_gh

    def forward(self, inputs):
        n = self.n_cells
        cs, x = inputs[:n], inputs[n]
        rest = list(inputs[n + 1:])
        gc = rest.pop(0) if self.has_gc else None
        gh = rest.pop(0) if self.has_gh else None
        return kernels.lookup('tree_lstm_grad', x)(cs, x, gc, gh)

    def backward(self, indexes, grad_outputs):
        raise RuntimeError(
            'tree_lstm does not support double backprop: its gradient is '
            'not differentiable')


def tree_lstm(*inputs):
    """N-ary tree LSTM cell (the variant of Bowman et al., one forget gate
    per child).

    The inputs are the children's cell states :math:`c_1, \\dots, c_N` and
    then ``x``, whose axis 1 is :math:`N + 3` consecutive blocks of the
    cells' width: the pre-activations :math:`a, i, o, f_1, \\dots, f_N`
    (cell input, input gate, output gate, one forget gate per child). Then

    .. math::

        c &= \\tanh(a) \\sigma(i) + \\sum_n \\sigma(f_n) c_n, \\\\
        h &= \\sigma(o) \\tanh(c),

    with :math:`\\sigma` the sigmoid. Unlike :func:`lstm`, the gates are
    blocks, not interleaved per unit. Double backprop is not supported.

    Args:
        *inputs (Variable or array): ``c_1, ..., c_N`` of shape
            ``(B, U, ...)`` and ``x`` of shape ``(B, (N + 3) U, ...)``, all
            of one float dtype; :math:`N \\ge 1`.

    Returns:
        tuple: ``(c, h)``, both of shape ``(B, U, ...)``.
    """
    if len(inputs) < 2:
        raise TypeError('tree_lstm: needs at least one cell state and x, '
                        'got {} inputs'.format(len(inputs)))
    return TreeLSTM().apply(inputs)
