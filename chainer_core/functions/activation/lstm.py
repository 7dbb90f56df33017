"""lstm: the long short-term memory cell with a forget gate."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.activation import _cell
from chainer_core.utils import type_check


@kernels.declare('lstm')
def _lstm(xp, c_prev, x):
    """(c_next, h): with a, i, f, o the gates of x, interleaved per unit
    along axis 1 (x.shape[1] == 4 * c_prev.shape[1]), and B = len(x):
    c_next[:B] = tanh(a) sigmoid(i) + sigmoid(f) c_prev[:B],
    c_next[B:] = c_prev[B:], h = sigmoid(o) tanh(c_next[:B])."""
    batch = x.shape[0]
    cw, xw = _cell.widen(c_prev[:batch], x)
    a, i, f, o = _cell.interleaved(xw)
    c = xp.tanh(a) * _cell.sigmoid(xp, i) + _cell.sigmoid(xp, f) * cw
    h = (_cell.sigmoid(xp, o) * xp.tanh(c)).astype(x.dtype, copy=False)
    c = c.astype(x.dtype, copy=False)
    if batch < c_prev.shape[0]:
        c = xp.concatenate((c, c_prev[batch:]))
    return c, h


@kernels.declare('lstm_grad')
def _lstm_grad(xp, c_prev, x, gc, gh):
    """(gc_prev, gx): the gradients of lstm's inputs given those of its
    outputs, gc (of c_next) and gh (of h); either may be None (zero)."""
    batch = x.shape[0]
    cw, xw, gcw, ghw = _cell.widen(
        c_prev[:batch], x, None if gc is None else gc[:batch], gh)
    za, zi, zf, zo = _cell.interleaved(xw)
    a = xp.tanh(za)
    i = _cell.sigmoid(xp, zi)
    f = _cell.sigmoid(xp, zf)
    o = _cell.sigmoid(xp, zo)
    co = xp.tanh(a * i + f * cw)
    gct = xp.zeros_like(cw) if gcw is None else gcw
    if ghw is None:
        go = xp.zeros_like(o)
    else:
        gct = gct + ghw * o * (1 - co * co)
        go = ghw * co * o * (1 - o)
    gx = _cell.join_interleaved(
        xp, (gct * i * (1 - a * a), gct * a * i * (1 - i),
             gct * cw * f * (1 - f), go), x.shape, x.dtype)
    gc_prev = (gct * f).astype(x.dtype, copy=False)
    if batch < c_prev.shape[0]:
        rest = (xp.zeros_like(c_prev[batch:]) if gc is None
                else gc[batch:])
        gc_prev = xp.concatenate((gc_prev, rest))
    return gc_prev, gx


def _check_cell(c_type, x_type, n_gates):
    """Expectations shared by the cells: float, ndim >= 2, x's axis 1
    n_gates times c's, equal trailing axes."""
    type_check.expect(
        c_type.dtype.kind == 'f',
        x_type.dtype == c_type.dtype,
        c_type.ndim >= 2,
        x_type.ndim == c_type.ndim,
        x_type.shape[1] == n_gates * c_type.shape[1],
    )
    for k in range(2, type_check.eval(c_type.ndim)):
        type_check.expect(x_type.shape[k] == c_type.shape[k])


class LSTM(function_node.FunctionNode):
    """LSTM cell: inputs (c_prev, x), outputs (c_next, h)."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('c_prev', 'x'))
        c_type, x_type = in_types
        _check_cell(c_type, x_type, 4)
        type_check.expect(x_type.shape[0] <= c_type.shape[0])

    def forward(self, inputs):
        c_prev, x = inputs
        self.retain_inputs((0, 1))
        return kernels.lookup('lstm', x)(c_prev, x)

    def backward(self, indexes, grad_outputs):
        c_prev, x = self.get_retained_inputs()
        gc, gh = grad_outputs
        return LSTMGrad(gc is not None, gh is not None).apply(
            tuple(v for v in (c_prev, x, gc, gh) if v is not None))


class LSTMGrad(function_node.FunctionNode):
    """``(gc_prev, gx)`` of lstm as a function of c_prev, x and whichever
    of gc, gh were given."""

    def __init__(self, has_gc, has_gh):
        self.has_gc = has_gc
        self.has_gh = has_gh

    def _unpack(self, inputs):
        c_prev, x = inputs[:2]
        rest = list(inputs[2:])
        gc = rest.pop(0) if self.has_gc else None
        gh = rest.pop(0) if self.has_gh else None
        return c_prev, x, gc, gh

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        c_prev, x, gc, gh = self._unpack(inputs)
        return kernels.lookup('lstm_grad', x)(c_prev, x, gc, gh)

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.get_item import (
            GetItemGrad, get_item)
        c_prev, x, gc, gh = self._unpack(self.get_retained_inputs())
        ggc_prev, ggx = grad_outputs
        batch, rows = x.shape[0], c_prev.shape[0]
        head, tail = (slice(0, batch),), (slice(batch, rows),)

        def top(v):
            if v is None or batch == rows:
                return v
            return get_item(v, head)

        def pad(v, index):
            if v is None or batch == rows:
                return v
            return GetItemGrad(index, c_prev.shape).apply((v,))[0]

        za, zi, zf, zo = _cell.split_interleaved(x)
        gg_za, gg_zi, gg_zf, gg_zo = _cell.split_interleaved(ggx)
        d_za, d_zi, d_zf, d_c, d_zo, dgc, dgh = _cell.grad_grad(
            [(za, zi)], [(zf, top(c_prev))], zo, top(gc), gh,
            [(gg_za, gg_zi)], [(gg_zf, top(ggc_prev))], gg_zo)
        g_c_prev = pad(d_c[0], head)
        g_x = _cell.merge_interleaved(
            (d_za[0], d_zi[0], d_zf[0], d_zo), x.shape)
        g_gc = pad(dgc, head)
        if ggc_prev is not None and batch < rows:
            rest = pad(get_item(ggc_prev, tail), tail)
            g_gc = rest if g_gc is None else g_gc + rest
        out = [g_c_prev, g_x]
        if self.has_gc:
            out.append(g_gc)
        if self.has_gh:
            out.append(dgh)
        return tuple(out[k] for k in indexes)


def lstm(c_prev, x):
    """Long short-term memory cell with a forget gate.

    ``x`` holds the pre-activations of four gates, interleaved per unit
    along axis 1: for unit :math:`u`, ``x[:, 4u]``, ``x[:, 4u+1]``,
    ``x[:, 4u+2]`` and ``x[:, 4u+3]`` are :math:`a` (cell input),
    :math:`i` (input gate), :math:`f` (forget gate) and :math:`o` (output
    gate). Then

    .. math::

        c &= \\tanh(a) \\sigma(i) + c_{\\text{prev}} \\sigma(f), \\\\
        h &= \\sigma(o) \\tanh(c),

    with :math:`\\sigma` the sigmoid. ``x`` may have fewer rows than
    ``c_prev`` (a mini-batch of sequences sorted by decreasing length, some
    of which have ended): then only ``c_prev[:len(x)]`` is updated, the
    remaining rows of ``c_prev`` are passed to ``c`` unchanged, and ``h``
    has ``len(x)`` rows.

    Args:
        c_prev (Variable or array): the previous cell state, shape
            ``(N, U, ...)``, float16/32/64.
        x (Variable or array): the gate pre-activations, shape
            ``(B, 4U, ...)`` with ``B <= N``, of the dtype of ``c_prev``.

    Returns:
        tuple: ``(c, h)``: the new cell state, of ``c_prev``'s shape, and
        the output, of shape ``(B, U, ...)``.
    """
    return LSTM().apply((c_prev, x))
