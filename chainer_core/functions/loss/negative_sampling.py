"""negative_sampling: the word2vec loss with sampled negative words."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.loss import _sampled, _util
from chainer_core.utils import type_check


@kernels.declare('negative_sampling')
def _negative_sampling(xp, x, W, samples, mask, reduce):
    """With f[b, k] = W[samples[b, k]] . x[b] (column 0 the positive word):
    softplus(-f[b, 0]) + sum_{k>0} softplus(f[b, k]) per row b, 0 where mask
    is False; summed when reduce is 'sum', else of shape (N,)."""
    ft = _util.float_type(x.dtype)
    w = W[samples].astype(ft, copy=False)
    f = (w * x.astype(ft, copy=False)[:, None, :]).sum(axis=2)
    f[:, 0] *= -1
    loss = (xp.maximum(f, 0) + xp.log1p(xp.exp(-abs(f)))).sum(axis=1)
    loss = xp.where(mask, loss, 0)
    if reduce == 'sum':
        return xp.asarray(loss.sum(), dtype=x.dtype)
    return loss.astype(x.dtype)


def check_word_types(in_types, t_dtype=None, n_words=None):
    """Expect ``(x, t, W)``: ``x`` (N, D) of a float dtype, the word ids
    ``t`` (N,) of dtype ``t_dtype`` (None: any signed int) and ``W``
    (``n_words`` or any number, D) of the dtype of ``x``."""
    type_check.expect(in_types.size() == 3)
    type_check.argname(in_types, ('x', 't', 'W'))
    x_type, t_type, w_type = in_types
    conditions = [
        x_type.dtype.kind == 'f',
        x_type.ndim == 2,
        t_type.dtype.kind == 'i' if t_dtype is None
        else t_type.dtype == t_dtype,
        t_type.ndim == 1,
        x_type.shape[0] == t_type.shape[0],
        w_type.dtype == x_type.dtype,
        w_type.ndim == 2,
    ]
    if n_words is not None:
        conditions.append(w_type.shape[0] == n_words)
    conditions.append(w_type.shape[1] == x_type.shape[1])
    type_check.expect(*conditions)


class NegativeSamplingFunction(function_node.FunctionNode):
    """Negative sampling loss; the samples are drawn in forward."""

    ignore_label = -1

    def __init__(self, sampler, sample_size, reduce='sum'):
        self.sampler = sampler
        self.sample_size = sample_size
        self.reduce = reduce
        self.samples = None

    def check_type_forward(self, in_types):
        check_word_types(in_types)

    def _make_samples(self, xp, t, n_vocab):
        shape = (t.shape[0], self.sample_size + 1)
        samples = xp.array(self.sampler(shape))
        if samples.shape != shape or samples.dtype.kind not in 'iu':
            raise ValueError(
                'negative_sampling: sampler must return integers of shape '
                '{}, got {} {}'.format(shape, samples.dtype, samples.shape))
        samples[:, 0] = xp.where(self.mask, t, 0)
        if samples.size and (int(samples.min()) < 0 or
                             int(samples.max()) >= n_vocab):
            raise ValueError(
                'negative_sampling: t and the samples must be in [0, {}) '
                '(or t == -1 to ignore a row)'.format(n_vocab))
        return samples

    def forward(self, inputs):
        self.retain_inputs((0, 2))
        x, t, W = inputs
        xp = _util.array_module(x)
        self.mask = t != self.ignore_label
        self.samples = self._make_samples(xp, t, W.shape[0])
        return kernels.lookup('negative_sampling', x)(
            x, W, self.samples, self.mask, self.reduce),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.activation.sigmoid import sigmoid
        from chainer_core.functions.array.reshape import reshape
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        xp = x.xp
        n, k = self.samples.shape
        f, w, xb = _sampled.sampled_scores(x, W, self.samples)
        # d softplus(s f) / df = s sigmoid(s f), s = -1 for the positive.
        sign = xp.ones(k, dtype=x.dtype)
        sign[0] = -1
        scale = sign[None] * self.mask[:, None].astype(x.dtype)
        if self.reduce == 'no':
            gy = reshape(gy, (n, 1))
        g = _util.broadcast_like(gy, (n, k)) * sigmoid(f * sign) * scale
        return _sampled.input_grads(indexes, g, w, xb, self.samples, W.shape)


def negative_sampling(x, t, W, sampler, sample_size, reduce='sum', **kwargs):
    """Negative sampling loss (Mikolov et al., 2013).

    For input ``x[b]`` with positive word ``t[b]`` and ``sample_size``
    words :math:`N_b` drawn by ``sampler``,

    .. math::
        \\ell_b = -\\log \\sigma(x_b^\\top w_{t_b})
        - \\sum_{n \\in N_b} \\log \\sigma(-x_b^\\top w_n).

    Rows whose label is -1 are left out (loss 0, no gradient).

    Args:
        x (Variable or array): inputs ``(N, D)``, float16/32/64.
        t (Variable or array): positive words ``(N,)``, signed integers in
            ``[0, V)`` or -1.
        W (Variable or array): word vectors ``(V, D)``, of ``x``'s dtype.
        sampler (callable): takes a shape and returns integer samples of
            that shape in ``[0, V)`` (for example a Walker alias sampler of
            the unigram distribution raised to a power).
        sample_size (int): number of negative samples per row.
        reduce (str): ``'sum'`` for the 0-dim sum, ``'no'`` for the losses of
            shape ``(N,)``.
        return_samples (bool): keyword only; also return the
            ``(N, sample_size + 1)`` samples, whose column 0 is ``t``.

    Returns:
        Variable, or ``(Variable, samples)`` with ``return_samples``:
        differentiable (twice) by ``x`` and ``W``.
    """
    return_samples = kwargs.pop('return_samples', False)
    if kwargs:
        raise TypeError('negative_sampling: unexpected keyword arguments {}'
                        .format(', '.join(sorted(kwargs))))
    _util.check_reduce('negative_sampling', reduce, ('sum', 'no'))
    if not callable(sampler):
        raise TypeError('negative_sampling: sampler must be callable, got {}'
                        .format(type(sampler).__name__))
    if not isinstance(sample_size, int) or isinstance(sample_size, bool) or \
            sample_size < 0:
        raise ValueError('negative_sampling: sample_size must be a '
                         'non-negative int, got {!r}'.format(sample_size))
    func = NegativeSamplingFunction(sampler, sample_size, reduce)
    out = func.apply((x, t, W))[0]
    if return_samples:
        return out, func.samples
    return out
