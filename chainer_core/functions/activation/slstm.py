"""slstm: the S-LSTM cell, merging two child cells of a binary tree."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.activation import _cell
from chainer_core.functions.activation.lstm import _check_cell
from chainer_core.utils import type_check


@kernels.declare('slstm')
def _slstm(xp, c_prev1, c_prev2, x1, x2):
    """(c, h): with a_k, i_k, f_k, o_k the gates of x_k, interleaved per
    unit along axis 1: c = sum_k tanh(a_k) sigmoid(i_k) + sigmoid(f_k)
    c_prev_k, h = sigmoid(o_1 + o_2) tanh(c)."""
    c1, c2, x1w, x2w = _cell.widen(c_prev1, c_prev2, x1, x2)
    a1, i1, f1, o1 = _cell.interleaved(x1w)
    a2, i2, f2, o2 = _cell.interleaved(x2w)
    sig = _cell.sigmoid
    c = (xp.tanh(a1) * sig(xp, i1) + xp.tanh(a2) * sig(xp, i2)
         + sig(xp, f1) * c1 + sig(xp, f2) * c2)
    h = sig(xp, o1 + o2) * xp.tanh(c)
    return c.astype(x1.dtype, copy=False), h.astype(x1.dtype, copy=False)


@kernels.declare('slstm_grad')
def _slstm_grad(xp, c_prev1, c_prev2, x1, x2, gc, gh):
    """(gc_prev1, gc_prev2, gx1, gx2): the gradients of slstm's inputs
    given those of its outputs, gc and gh; either may be None (zero)."""
    c1, c2, x1w, x2w, gc, gh = _cell.widen(c_prev1, c_prev2, x1, x2, gc, gh)
    za1, zi1, zf1, zo1 = _cell.interleaved(x1w)
    za2, zi2, zf2, zo2 = _cell.interleaved(x2w)
    sig = _cell.sigmoid
    a1, a2 = xp.tanh(za1), xp.tanh(za2)
    i1, i2 = sig(xp, zi1), sig(xp, zi2)
    f1, f2 = sig(xp, zf1), sig(xp, zf2)
    o = sig(xp, zo1 + zo2)
    co = xp.tanh(a1 * i1 + a2 * i2 + f1 * c1 + f2 * c2)
    gct = xp.zeros_like(c1) if gc is None else gc
    if gh is None:
        go = xp.zeros_like(o)
    else:
        gct = gct + gh * o * (1 - co * co)
        go = gh * co * o * (1 - o)
    dtype = x1.dtype
    gx1 = _cell.join_interleaved(
        xp, (gct * i1 * (1 - a1 * a1), gct * a1 * i1 * (1 - i1),
             gct * c1 * f1 * (1 - f1), go), x1.shape, dtype)
    gx2 = _cell.join_interleaved(
        xp, (gct * i2 * (1 - a2 * a2), gct * a2 * i2 * (1 - i2),
             gct * c2 * f2 * (1 - f2), go), x2.shape, dtype)
    return ((gct * f1).astype(dtype, copy=False),
            (gct * f2).astype(dtype, copy=False), gx1, gx2)


class SLSTM(function_node.FunctionNode):
    """S-LSTM cell: inputs (c_prev1, c_prev2, x1, x2), outputs (c, h)."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 4)
        type_check.argname(in_types, ('c_prev1', 'c_prev2', 'x1', 'x2'))
        c1_type, c2_type, x1_type, x2_type = in_types
        _check_cell(c1_type, x1_type, 4)
        type_check.expect(c2_type.shape == c1_type.shape,
                          c2_type.dtype == c1_type.dtype,
                          x2_type.shape == x1_type.shape,
                          x2_type.dtype == x1_type.dtype,
                          x1_type.shape[0] == c1_type.shape[0])

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2, 3))
        x1 = inputs[2]
        return kernels.lookup('slstm', x1)(*inputs)

    def backward(self, indexes, grad_outputs):
        gc, gh = grad_outputs
        return SLSTMGrad(gc is not None, gh is not None).apply(
            self.get_retained_inputs()
            + tuple(g for g in (gc, gh) if g is not None))


class SLSTMGrad(function_node.FunctionNode):
    """``(gc_prev1, gc_prev2, gx1, gx2)`` of slstm as a function of its
    inputs and whichever of gc, gh were given."""

    def __init__(self, has_gc, has_gh):
        self.has_gc = has_gc
        self.has_gh = has_gh

    def _unpack(self, inputs):
        rest = list(inputs[4:])
        gc = rest.pop(0) if self.has_gc else None
        gh = rest.pop(0) if self.has_gh else None
        return tuple(inputs[:4]) + (gc, gh)

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        args = self._unpack(inputs)
        return kernels.lookup('slstm_grad', inputs[2])(*args)

    def backward(self, indexes, grad_outputs):
        c1, c2, x1, x2, gc, gh = self._unpack(self.get_retained_inputs())
        ggc1, ggc2, ggx1, ggx2 = grad_outputs
        za1, zi1, zf1, zo1 = _cell.split_interleaved(x1)
        za2, zi2, zf2, zo2 = _cell.split_interleaved(x2)
        gg_za1, gg_zi1, gg_zf1, gg_zo1 = _cell.split_interleaved(ggx1)
        gg_za2, gg_zi2, gg_zf2, gg_zo2 = _cell.split_interleaved(ggx2)
        # Both x's output-gate parts enter through o_1 + o_2, and both
        # receive the same first-order gradient.
        gg_zo = _cell.add_all(gg_zo1, gg_zo2)
        d_za, d_zi, d_zf, d_c, d_zo, dgc, dgh = _cell.grad_grad(
            [(za1, zi1), (za2, zi2)], [(zf1, c1), (zf2, c2)], zo1 + zo2,
            gc, gh, [(gg_za1, gg_zi1), (gg_za2, gg_zi2)],
            [(gg_zf1, ggc1), (gg_zf2, ggc2)], gg_zo)
        out = [d_c[0], d_c[1],
               _cell.merge_interleaved(
                   (d_za[0], d_zi[0], d_zf[0], d_zo), x1.shape),
               _cell.merge_interleaved(
                   (d_za[1], d_zi[1], d_zf[1], d_zo), x2.shape)]
        if self.has_gc:
            out.append(dgc)
        if self.has_gh:
            out.append(dgh)
        return tuple(out[k] for k in indexes)


def slstm(c_prev1, c_prev2, x1, x2):
    """S-LSTM cell: an LSTM cell over the two children of a binary tree
    node.

    Each of ``x1`` and ``x2`` holds four gate pre-activations interleaved
    per unit along axis 1, as in :func:`lstm`: :math:`a_k, i_k, f_k, o_k`
    for child :math:`k`. Then

    .. math::

        c &= \\tanh(a_1) \\sigma(i_1) + \\tanh(a_2) \\sigma(i_2)
             + \\sigma(f_1) c_{\\text{prev}1}
             + \\sigma(f_2) c_{\\text{prev}2}, \\\\
        h &= \\sigma(o_1 + o_2) \\tanh(c),

    with :math:`\\sigma` the sigmoid.

    Args:
        c_prev1, c_prev2 (Variable or array): the children's cell states,
            shape ``(B, U, ...)``, float16/32/64.
        x1, x2 (Variable or array): the children's gate pre-activations,
            shape ``(B, 4U, ...)``, of the same dtype.

    Returns:
        tuple: ``(c, h)``, both of shape ``(B, U, ...)``.
    """
    return SLSTM().apply((c_prev1, c_prev2, x1, x2))
