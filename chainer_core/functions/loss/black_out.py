"""black_out: the BlackOut loss over sampled negative words."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.loss import _sampled, _util
from chainer_core.utils import type_check
from chainer_core.variable import as_array


@kernels.declare('black_out')
def _black_out(xp, x, W, ids, reduce):
    """With s[b, k] = W[ids[b, k]] . x[b] (ids: the label, then the samples)
    and p = softmax(s, axis=1): -log p[b, 0] - sum_{k>0} log(1 - p[b, k]) per
    row; the mean over rows when reduce is 'mean', else of shape (N,)."""
    ft = _util.float_type(x.dtype)
    w = W[ids].astype(ft, copy=False)
    s = (w * x.astype(ft, copy=False)[:, None, :]).sum(axis=2)
    m = s.max(axis=1, keepdims=True)
    log_p = s - m - xp.log(xp.exp(s - m).sum(axis=1, keepdims=True))
    loss = -log_p[:, 0] - xp.log1p(-xp.exp(log_p[:, 1:])).sum(axis=1)
    if reduce == 'mean':
        return xp.asarray(loss.sum() / max(loss.size, 1), dtype=x.dtype)
    return loss.astype(x.dtype)


class BlackOut(function_node.FunctionNode):
    """BlackOut loss for given negative samples."""

    def __init__(self, ids, reduce='mean'):
        self.ids = ids
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('x', 'W'))
        x_type, w_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 2,
            x_type.shape[0] == self.ids.shape[0],
            w_type.dtype == x_type.dtype,
            w_type.ndim == 2,
            w_type.shape[1] == x_type.shape[1],
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, W = inputs
        if self.ids.size and (int(self.ids.min()) < 0 or
                              int(self.ids.max()) >= W.shape[0]):
            raise ValueError('black_out: t and samples must hold words in '
                             '[0, {})'.format(W.shape[0]))
        return kernels.lookup('black_out', x)(x, W, self.ids, self.reduce),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.activation.softmax import softmax
        from chainer_core.functions.array.reshape import reshape
        from chainer_core.functions.math.sum import sum as sum_
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        xp = x.xp
        n, k = self.ids.shape
        s, w, xb = _sampled.sampled_scores(x, W, self.ids)
        p = softmax(s, axis=1)
        negative = xp.ones(k, dtype=x.dtype)
        negative[0] = 0
        first = xp.zeros(k, dtype=x.dtype)
        first[0] = 1
        # With r_k = p_k / (1 - p_k) over the samples (r_0 = 0), the
        # gradient by s is p - e_0 + r - p sum(r).
        pn = p * negative
        r = pn / (1 - pn)
        total = _util.broadcast_like(sum_(r, axis=1, keepdims=True), (n, k))
        g = p + r - p * total - first
        if self.reduce == 'mean':
            # An empty batch has empty gradients, whatever the scale.
            gy = gy * (1.0 / max(n, 1))
        else:
            gy = reshape(gy, (n, 1))
        g = _util.broadcast_like(gy, (n, k)) * g
        return _sampled.input_grads(indexes, g, w, xb, self.ids, W.shape,
                                    w_index=1)


def black_out(x, t, W, samples, reduce='mean'):
    """BlackOut loss (Ji et al., 2016).

    .. math:: -\\log p(t) - \\sum_{s \\in S} \\log(1 - p(s)),
        \\quad p(y) = \\frac{\\exp(W_y^\\top x)}
        {\\sum_{s \\in \\{t\\} \\cup S} \\exp(W_s^\\top x)}

    Args:
        x (Variable or array): inputs ``(N, D)``, float16/32/64.
        t (Variable or array): correct words ``(N,)``, integers in
            ``[0, V)``.
        W (Variable or array): word vectors ``(V, D)``, of ``x``'s dtype.
        samples (Variable or array): negative samples ``(N, S)``, integers
            in ``[0, V)``.
        reduce (str): ``'mean'`` for the 0-dim mean over ``N``, ``'no'`` for
            the losses of shape ``(N,)``.

    Returns:
        Variable: the loss, of ``x``'s dtype; differentiable (twice) by
        ``x`` and ``W``.
    """
    _util.check_reduce('black_out', reduce, ('mean', 'no'))
    t, samples = as_array(t), as_array(samples)
    if not hasattr(t, 'dtype') or t.dtype.kind not in 'iu' or t.ndim != 1:
        raise TypeError('black_out: t must be a 1-dim integer array, got {}'
                        .format(getattr(t, 'shape', type(t).__name__)))
    if not hasattr(samples, 'dtype') or samples.dtype.kind not in 'iu' or \
            samples.ndim != 2 or samples.shape[0] != t.shape[0]:
        raise TypeError('black_out: samples must be an integer array of shape '
                        '({}, S), got {}'.format(
                            t.shape[0],
                            getattr(samples, 'shape', type(samples).__name__)))
    xp = _util.array_module(t)
    ids = xp.concatenate([t[:, None], samples], axis=1)
    return BlackOut(ids, reduce).apply((x, W))[0]
