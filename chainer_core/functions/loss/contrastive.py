"""contrastive: the loss of similar and dissimilar pairs."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.loss import _util
from chainer_core.utils import type_check

# The smallest distance divided by in the gradient of a dissimilar pair.
_MIN_DIST = 1e-8


@kernels.declare('contrastive')
def _contrastive(xp, x0, x1, y, margin, reduce):
    """With d_n = ||x0_n - x1_n||: (y d**2 + (1 - y) max(margin - d, 0)**2)
    / 2 per pair; the mean over pairs when reduce is 'mean'."""
    ft = _util.float_type(x0.dtype)
    diff = (x0 - x1).astype(ft, copy=False)
    dist_sq = (diff * diff).sum(axis=1)
    gap = xp.maximum(margin - xp.sqrt(dist_sq), 0)
    yf = y.astype(ft)
    loss = (yf * dist_sq + (1 - yf) * gap * gap) * ft.type(0.5)
    if reduce == 'mean':
        return xp.asarray(loss.sum() / max(loss.size, 1), dtype=x0.dtype)
    return loss.astype(x0.dtype)


class Contrastive(function_node.FunctionNode):
    """Contrastive loss of pairs of vectors with similarity labels."""

    def __init__(self, margin, reduce='mean'):
        self.margin = margin
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 3)
        type_check.argname(in_types, ('x0', 'x1', 'y'))
        x0_type, x1_type, y_type = in_types
        type_check.expect(
            x0_type.dtype.kind == 'f',
            x0_type.dtype == x1_type.dtype,
            y_type.dtype.kind == 'i',
            x0_type.ndim == 2,
            x0_type.shape == x1_type.shape,
            y_type.ndim == 1,
            x1_type.shape[0] == y_type.shape[0],
            x1_type.shape[0] > 0,
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2))
        x0, x1, y = inputs
        return kernels.lookup('contrastive', x0)(
            x0, x1, y, self.margin, self.reduce),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.activation.relu import relu
        from chainer_core.functions.math.sum import sum as sum_
        x0, x1, y = self.get_retained_inputs()
        gy, = grad_outputs
        xp = x0.xp
        shape = x0.shape
        diff = x0 - x1
        dist = sum_(diff * diff, axis=1) ** 0.5
        # Pairs closer than _MIN_DIST divide by _MIN_DIST instead.
        lift = xp.maximum(_MIN_DIST - dist.array, 0).astype(x0.dtype)
        dist = dist + lift
        if self.reduce == 'mean':
            gy = gy * (1.0 / shape[0])
        gy = _util.broadcast_like(gy, (shape[0],))
        yf = y.array.astype(x0.dtype)
        # d/dx0 of y d**2 / 2 is y diff; of (1 - y) max(m - d, 0)**2 / 2 it
        # is -(1 - y) max(m - d, 0) diff / d.
        coeff = gy * yf - gy * relu(self.margin - dist) * (1 - yf) / dist
        g = _util.expand_to(coeff, shape, 1) * diff
        ret = []
        if 0 in indexes:
            ret.append(g)
        if 1 in indexes:
            ret.append(-g)
        if 2 in indexes:
            ret.append(None)
        return tuple(ret)


def contrastive(x0, x1, y, margin=1, reduce='mean'):
    """Contrastive loss of pairs labelled similar (1) or dissimilar (0).

    .. math::
        L_n = \\frac{1}{2} \\left(y_n d_n^2 + (1 - y_n)
        \\max(\\mathrm{margin} - d_n, 0)^2\\right),
        \\quad d_n = \\|x_{0,n} - x_{1,n}\\|_2

    Args:
        x0 (Variable or array): first vectors, ``(N, K)``, float16/32/64.
        x1 (Variable or array): second vectors, of ``x0``'s shape and dtype.
        y (Variable or array): labels ``(N,)``, signed integers 0 or 1.
        margin (float): positive margin for dissimilar pairs.
        reduce (str): ``'mean'`` for the 0-dim mean over pairs, ``'no'`` for
            the losses of shape ``(N,)``.

    Returns:
        Variable: the loss, of ``x0``'s dtype; differentiable by ``x0`` and
        ``x1``.
    """
    if not margin > 0:
        raise ValueError('contrastive: margin must be positive, got {!r}'
                         .format(margin))
    _util.check_reduce('contrastive', reduce, ('mean', 'no'))
    return Contrastive(margin, reduce).apply((x0, x1, y))[0]
