"""triplet: the loss of anchor, positive and negative examples."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.loss import _util
from chainer_core.utils import type_check


@kernels.declare('triplet')
def _triplet(xp, anchor, positive, negative, margin, reduce):
    """max(||a - p||**2 - ||a - n||**2 + margin, 0) per row; the mean over
    rows when reduce is 'mean'."""
    ft = _util.float_type(anchor.dtype)
    dp = (anchor - positive).astype(ft, copy=False)
    dn = (anchor - negative).astype(ft, copy=False)
    loss = xp.maximum((dp * dp - dn * dn).sum(axis=1) + margin, 0)
    if reduce == 'mean':
        return xp.asarray(loss.sum() / max(loss.size, 1), dtype=anchor.dtype)
    return loss.astype(anchor.dtype)


class Triplet(function_node.FunctionNode):
    """Triplet loss."""

    def __init__(self, margin, reduce='mean'):
        self.margin = margin
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 3)
        type_check.argname(in_types, ('anchor', 'positive', 'negative'))
        a_type, p_type, n_type = in_types
        type_check.expect(
            a_type.dtype.kind == 'f',
            a_type.dtype == p_type.dtype,
            a_type.dtype == n_type.dtype,
            a_type.ndim == 2,
            a_type.shape == p_type.shape,
            a_type.shape == n_type.shape,
            a_type.shape[0] > 0,
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2))
        a, p, n = inputs
        return kernels.lookup('triplet', a)(a, p, n, self.margin,
                                            self.reduce),

    def backward(self, indexes, grad_outputs):
        a, p, n = self.get_retained_inputs()
        gy, = grad_outputs
        dp, dn = a.array - p.array, a.array - n.array
        active = ((dp * dp - dn * dn).sum(axis=1) + self.margin) > 0
        if self.reduce == 'mean':
            gy = gy * (1.0 / a.shape[0])
        gy = _util.broadcast_like(gy, (a.shape[0],))
        g = _util.expand_to(gy * (2 * active).astype(a.dtype), a.shape, 1)
        grads = {0: lambda: g * (n - p), 1: lambda: g * (p - a),
                 2: lambda: g * (a - n)}
        return tuple(grads[i]() for i in indexes)


def triplet(anchor, positive, negative, margin=0.2, reduce='mean'):
    """Triplet loss.

    .. math::
        L_i = \\max(\\|a_i - p_i\\|_2^2 - \\|a_i - n_i\\|_2^2
        + \\mathrm{margin}, 0)

    Args:
        anchor (Variable or array): anchors, ``(N, K)``, float16/32/64.
        positive (Variable or array): positive examples, of the anchors'
            shape and dtype.
        negative (Variable or array): negative examples, likewise.
        margin (float): positive margin.
        reduce (str): ``'mean'`` for the 0-dim mean over ``N``, ``'no'`` for
            the losses of shape ``(N,)``.

    Returns:
        Variable: the loss, of the inputs' dtype.
    """
    if not margin > 0:
        raise ValueError('triplet: margin must be positive, got {!r}'.format(
            margin))
    _util.check_reduce('triplet', reduce, ('mean', 'no'))
    return Triplet(margin, reduce).apply((anchor, positive, negative))[0]
