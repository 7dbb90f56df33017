"""hinge: the one-vs-rest hinge loss for classification."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.loss import _util
from chainer_core.utils import type_check


class NormError(NotImplementedError, ValueError):
    """An unknown ``norm``: Chainer raises NotImplementedError; it is a
    ValueError too, as for every other bad parameter."""


def _signs(xp, x, t):
    """-1 at the label of each row, +1 elsewhere."""
    sign = xp.ones(x.shape, dtype=x.dtype)
    xp.put_along_axis(sign, t[:, None].astype(xp.intp), -1, axis=1)
    return sign


@kernels.declare('hinge')
def _hinge(xp, x, t, norm, reduce):
    """Loss of scores x (N, K) for labels t (N,): max(0, 1 - x) at the label,
    max(0, 1 + x) elsewhere, squared for norm 'L2'; summed and divided by N
    when reduce is 'mean', else of shape (N, K)."""
    margin = xp.maximum(1 + _signs(xp, x, t) * x, 0)
    loss = margin if norm == 'L1' else margin * margin
    if reduce == 'mean':
        total = loss.astype(_util.float_type(x.dtype), copy=False).sum()
        return xp.asarray(total / max(x.shape[0], 1), dtype=x.dtype)
    return loss


class Hinge(function_node.FunctionNode):
    """Hinge loss of scores against integer labels."""

    def __init__(self, norm='L1', reduce='mean'):
        self.norm = norm
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            t_type.dtype.kind == 'i',
            x_type.ndim == 2,
            t_type.ndim == 1,
            x_type.shape[0] == t_type.shape[0],
        )

    def forward(self, inputs):
        x, t = inputs
        bad = (t < 0) | (t >= x.shape[1])
        if bool(bad.any()):
            raise ValueError('hinge: t must hold labels in [0, {}), got {}'
                             .format(x.shape[1], int(t[bad][0])))
        self.retain_inputs((0, 1))
        return kernels.lookup('hinge', x)(x, t, self.norm, self.reduce),

    def backward(self, indexes, grad_outputs):
        x, t = self.get_retained_inputs()
        gy, = grad_outputs
        xp = x.xp
        sign = _signs(xp, x.array, t.array)
        active = (1 + sign * x.array) > 0
        if self.reduce == 'mean':
            gy = _util.broadcast_like(gy * (1.0 / max(x.shape[0], 1)),
                                      x.shape)
        slope = (sign * active).astype(x.dtype)
        if self.norm == 'L1':
            return gy * slope, None
        # d/dx max(0, 1 + s x)**2 = 2 s (1 + s x) where active.
        return gy * slope * (x * sign + 1) * 2.0, None


def hinge(x, t, norm='L1', reduce='mean'):
    """Hinge loss for one-of-many classification.

    .. math::
        L = \\frac{1}{N} \\sum_{n=1}^N \\sum_{k=1}^K
        \\left[\\max(0, 1 - \\delta\\{t_n = k\\} x_{nk})\\right]^p

    where :math:`\\delta\\{\\cdot\\}` is 1 when the condition holds and -1
    otherwise, and :math:`p` is 1 for ``'L1'`` and 2 for ``'L2'``.

    Args:
        x (Variable or array): scores of shape ``(N, K)``, float16/32/64.
        t (Variable or array): labels of shape ``(N,)``, signed integers in
            ``[0, K)``.
        norm (str): ``'L1'`` or ``'L2'``.
        reduce (str): ``'mean'`` for a 0-dim loss (the sum divided by ``N``),
            ``'no'`` for the elementwise losses of shape ``(N, K)``.

    Returns:
        Variable: the loss, of ``x``'s dtype; differentiable by ``x`` only.
    """
    if norm not in ('L1', 'L2'):
        raise NormError("hinge: norm must be 'L1' or 'L2', got {!r}".format(
            norm))
    _util.check_reduce('hinge', reduce, ('mean', 'no'))
    return Hinge(norm, reduce).apply((x, t))[0]
