"""connectionist_temporal_classification: the CTC loss of label sequences."""
import collections.abc
import numbers

import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.loss import _util
from chainer_core.utils import type_check
from chainer_core.variable import as_array

# log(0) of the dynamic programme: finite, so that log-sum-exp over
# unreachable states stays free of inf - inf.
_LOG_ZERO = -1e10


def _logsumexp3(xp, a, b, c):
    m = xp.maximum(xp.maximum(a, b), c)
    return m + xp.log(xp.exp(a - m) + xp.exp(b - m) + xp.exp(c - m))


def _shift(xp, a, k):
    """a moved k places along the last axis (right for k > 0, left for
    k < 0), filled with log(0)."""
    out = xp.full(a.shape, _LOG_ZERO, dtype=a.dtype)
    if k > 0:
        out[..., k:] = a[..., :-k]
    else:
        out[..., :k] = a[..., -k:]
    return out


class _Lattice:
    """The CTC lattice of a batch: the label sequences with blanks
    interleaved (``path``, ``(B, S)`` with ``S = 2 M + 1``) and the log
    probabilities of emitting each path symbol at each step (``emit``,
    ``(T, B, S)``)."""

    def __init__(self, xp, x, t, blank, input_length, label_length):
        ft = _util.float_type(x.dtype)
        x = x.astype(ft, copy=False)
        n_step, n_batch, _ = x.shape
        m = x.max(axis=2, keepdims=True)
        z = x - m
        self.log_y = z - xp.log(xp.exp(z).sum(axis=2, keepdims=True))
        n_path = 2 * t.shape[1] + 1
        path = xp.full((n_batch, n_path), blank, dtype=t.dtype)
        path[:, 1::2] = t
        self.path = path
        index = xp.broadcast_to(path[None], (n_step, n_batch, n_path))
        self.emit = xp.take_along_axis(self.log_y, index.astype(xp.intp),
                                       axis=2)
        self.path_length = (2 * label_length + 1)[:, None]
        s = xp.arange(n_path)
        self.inside = s[None] < self.path_length
        # The jump s - 2 -> s skips a blank between two distinct labels.
        skip = xp.zeros((n_batch, n_path), dtype=bool)
        skip[:, 2:] = path[:, 2:] != path[:, :-2]
        self.skip = skip
        self.end = (s[None] == self.path_length - 1) | \
            (s[None] == self.path_length - 2)
        self.input_length = input_length[:, None]
        self.dtype = ft

    def alphas(self, xp):
        """log alpha, (T, B, S): the log probability of the prefixes ending
        in each state at each step (frozen after a sequence ends)."""
        emit = self.emit
        alpha = xp.full(emit.shape[1:], _LOG_ZERO, dtype=self.dtype)
        alpha[:, 0] = emit[0, :, 0]
        if alpha.shape[1] > 1:
            alpha[:, 1] = xp.where(self.path_length[:, 0] > 1,
                                   emit[0, :, 1], _LOG_ZERO)
        out = [alpha]
        for step in range(1, emit.shape[0]):
            jump = xp.where(self.skip, _shift(xp, alpha, 2), _LOG_ZERO)
            new = _logsumexp3(xp, alpha, _shift(xp, alpha, 1), jump) + \
                emit[step]
            new = xp.where(self.inside, new, _LOG_ZERO)
            alpha = xp.where(step < self.input_length, new, alpha)
            out.append(alpha)
        return xp.stack(out)

    def betas(self, xp):
        """log beta, (T, B, S): the log probability of the suffixes starting
        in each state at each step, the emission at that step included."""
        emit = self.emit
        beta = xp.full(emit.shape[1:], _LOG_ZERO, dtype=self.dtype)
        # The jump s -> s + 2 is allowed where s + 2 may be reached by a
        # skip.
        skip_next = xp.zeros_like(self.skip)
        skip_next[:, :-2] = self.skip[:, 2:]
        out = [None] * emit.shape[0]
        for step in range(emit.shape[0] - 1, -1, -1):
            jump = xp.where(skip_next, _shift(xp, beta, -2), _LOG_ZERO)
            new = _logsumexp3(xp, beta, _shift(xp, beta, -1), jump) + \
                emit[step]
            new = xp.where(self.inside & (step < self.input_length - 1),
                           new, _LOG_ZERO)
            first = xp.where(self.end, emit[step], _LOG_ZERO)
            beta = xp.where(step == self.input_length - 1, first, new)
            out[step] = beta
        return xp.stack(out)

    def log_likelihood(self, xp, alpha_last):
        """log p(t | x) per sample from the alphas of the last step."""
        ends = xp.where(self.end, alpha_last, _LOG_ZERO)
        m = ends.max(axis=1, keepdims=True)
        return (m + xp.log(xp.exp(ends - m).sum(axis=1, keepdims=True)))[:, 0]


@kernels.declare('connectionist_temporal_classification')
def _ctc(xp, x, t, blank_symbol, input_length, label_length, reduce):
    """CTC loss -log p(t_b | x_b) of scores x (T, B, V) (softmax over V) for
    label sequences t (B, M) read up to label_length, over the first
    input_length steps; the mean over the batch when reduce is 'mean', else
    of shape (B,)."""
    lattice = _Lattice(xp, x, t, blank_symbol, input_length, label_length)
    loss = -lattice.log_likelihood(xp, lattice.alphas(xp)[-1])
    if reduce == 'mean':
        return xp.asarray(loss.mean(), dtype=x.dtype)
    return loss.astype(x.dtype)


@kernels.declare('connectionist_temporal_classification_grad')
def _ctc_grad(xp, x, t, gloss, blank_symbol, input_length, label_length,
              reduce):
    """Gradient of the CTC loss with respect to x (T, B, V):
    softmax(x) minus the posterior occupancy of each label, zero after
    input_length, scaled by gloss (divided by B when reduce is 'mean')."""
    lattice = _Lattice(xp, x, t, blank_symbol, input_length, label_length)
    alpha = lattice.alphas(xp)
    beta = lattice.betas(xp)
    ll = lattice.log_likelihood(xp, alpha[-1])
    n_step = x.shape[0]
    live = (xp.arange(n_step)[:, None] < input_length[None])[..., None]
    log_gamma = alpha + beta - lattice.emit - ll[None, :, None]
    # The posterior of a state is at most 1: clipping keeps unreachable
    # sequences (log-likelihood near log 0) from overflowing.
    gamma = xp.exp(xp.minimum(log_gamma, 0)) * live
    onehot = (lattice.path[:, :, None] ==
              xp.arange(x.shape[2])[None, None]).astype(gamma.dtype)
    occupancy = xp.matmul(gamma.transpose(1, 0, 2), onehot).transpose(1, 0, 2)
    gx = (xp.exp(lattice.log_y) - occupancy) * live
    g = gloss.astype(gx.dtype)
    if reduce == 'mean':
        gx *= g / x.shape[1]
    else:
        gx *= g[None, :, None]
    return gx.astype(x.dtype)


class ConnectionistTemporalClassification(function_node.FunctionNode):
    """CTC loss; inputs are the steps of x, each ``(B, V)``."""

    def __init__(self, t, blank_symbol, input_length, label_length,
                 reduce='mean'):
        self.t = t
        self.blank_symbol = blank_symbol
        self.input_length = input_length
        self.label_length = label_length
        self.reduce = reduce

    def check_type_forward(self, in_types):
        n = type_check.eval(in_types.size())
        type_check.argname(in_types,
                           tuple('x[{}]'.format(i) for i in range(n)))
        first = in_types[0]
        type_check.expect(first.dtype.kind == 'f', first.ndim == 2,
                          first.shape[0] == self.t.shape[0])
        for other in in_types[1:]:
            type_check.expect(other.dtype == first.dtype,
                              other.shape == first.shape)

    def _stacked(self, inputs):
        xp = _util.array_module(inputs[0])
        return xp.stack(inputs)

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        x = self._stacked(inputs)
        return kernels.lookup('connectionist_temporal_classification', x)(
            x, self.t, self.blank_symbol, self.input_length,
            self.label_length, self.reduce),

    def backward(self, indexes, grad_outputs):
        xs = self.get_retained_inputs()
        gxs = CTCGrad(self).apply(xs + (grad_outputs[0],))
        return tuple(gxs[i] for i in indexes)


class CTCGrad(function_node.FunctionNode):
    """The gradient of the CTC loss; first order only, as in Chainer."""

    def __init__(self, forward_node):
        self._fwd = forward_node

    def forward(self, inputs):
        f = self._fwd
        x = f._stacked(inputs[:-1])
        gx = kernels.lookup('connectionist_temporal_classification_grad', x)(
            x, f.t, inputs[-1], f.blank_symbol, f.input_length,
            f.label_length, f.reduce)
        return tuple(gx)

    def backward(self, indexes, grad_outputs):
        raise RuntimeError(
            'connectionist_temporal_classification does not support double '
            'backprop (neither does Chainer v7)')


def _int_vector(name, value, size, xp, default):
    if value is None:
        return xp.full((size,), default, dtype=numpy.int32)
    value = as_array(value)
    if not hasattr(value, 'dtype') or value.dtype.kind != 'i' or \
            value.shape != (size,):
        raise TypeError(
            'connectionist_temporal_classification: {} must be a signed '
            'integer array of shape ({},), got {} {}'.format(
                name, size, getattr(value, 'dtype', type(value).__name__),
                getattr(value, 'shape', '')))
    return value


def connectionist_temporal_classification(
        x, t, blank_symbol, input_length=None, label_length=None,
        reduce='mean'):
    """Connectionist Temporal Classification loss (Graves et al., 2006).

    The negative log-likelihood of each label sequence under the softmax of
    the scores, summed over every alignment of the sequence to the steps
    (labels repeated, blanks between them), computed by dynamic programming
    in log space over the whole batch at once.

    Args:
        x (list or tuple of Variable or array): ``T`` steps of unnormalised
            scores, each ``(B, V)`` (apply no softmax: it is applied here).
        t (Variable or array): label sequences ``(B, M)``, signed integers
            in ``[0, V)`` other than ``blank_symbol``.
        blank_symbol (int): the index of the blank, in ``[0, V)``.
        input_length (Variable or array or None): ``(B,)`` number of steps of
            each sequence, in ``[1, T]`` (None: all ``T``).
        label_length (Variable or array or None): ``(B,)`` number of labels
            of each sequence, in ``[0, M]`` (None: all ``M``).
        reduce (str): ``'mean'`` for the 0-dim mean over the batch, ``'no'``
            for the losses of shape ``(B,)``.

    Returns:
        Variable: the loss, of the dtype of ``x``; differentiable by ``x``
        only, once.
    """
    name = 'connectionist_temporal_classification'
    if not isinstance(x, collections.abc.Sequence) or not len(x):
        raise TypeError('{}: x must be a non-empty list of Variables or '
                        'arrays, got {}'.format(name, type(x).__name__))
    if not isinstance(blank_symbol, numbers.Integral) or \
            isinstance(blank_symbol, bool):
        raise TypeError('{}: blank_symbol must be an int, got {!r}'.format(
            name, blank_symbol))
    _util.check_reduce(name, reduce, ('mean', 'no'))
    x0 = x[0]
    if x0.ndim != 2:
        raise TypeError('{}: each step of x must be 2-dim (B, V), got shape '
                        '{}'.format(name, x0.shape))
    n_batch, n_vocab = x0.shape
    if not 0 <= blank_symbol < n_vocab:
        raise ValueError('{}: blank_symbol must be in [0, {}), got {}'.format(
            name, n_vocab, blank_symbol))
    t = as_array(t)
    if not hasattr(t, 'dtype') or t.dtype.kind != 'i' or t.ndim != 2 or \
            t.shape[0] != n_batch:
        raise TypeError('{}: t must be a signed integer array of shape '
                        '({}, M), got {} {}'.format(
                            name, n_batch, getattr(t, 'dtype', None),
                            getattr(t, 'shape', None)))
    xp = _util.array_module(as_array(x0))
    input_length = _int_vector('input_length', input_length, n_batch, xp,
                               len(x))
    label_length = _int_vector('label_length', label_length, n_batch, xp,
                               t.shape[1])
    if n_batch:
        if int(input_length.min()) < 1 or int(input_length.max()) > len(x):
            raise ValueError('{}: input_length must be in [1, {}]'.format(
                name, len(x)))
        if int(label_length.min()) < 0 or \
                int(label_length.max()) > t.shape[1]:
            raise ValueError('{}: label_length must be in [0, {}]'.format(
                name, t.shape[1]))
    if t.size and (int(t.min()) < 0 or int(t.max()) >= n_vocab):
        raise ValueError('{}: t must hold labels in [0, {})'.format(
            name, n_vocab))
    node = ConnectionistTemporalClassification(
        t, blank_symbol, input_length, label_length, reduce)
    return node.apply(tuple(x))[0]
