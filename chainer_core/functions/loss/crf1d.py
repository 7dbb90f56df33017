"""crf1d and argmax_crf1d: the linear-chain conditional random field."""
import collections.abc

import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.loss import _util
from chainer_core.variable import as_array


def _widen(a):
    return a.astype(_util.float_type(a.dtype), copy=False)


@kernels.declare('crf1d_step')
def _crf1d_step(xp, alpha, cost, x):
    """One step of the forward algorithm for the n = len(x) sequences still
    running: alpha'[b, j] = log sum_i exp(alpha[b, i] + cost[i, j]) + x[b, j]
    for b < n; the other rows of alpha are passed through."""
    n = x.shape[0]
    s = _widen(alpha[:n])[:, :, None] + _widen(cost)[None]
    m = s.max(axis=1, keepdims=True)
    top = (m + xp.log(xp.exp(s - m).sum(axis=1, keepdims=True)))[:, 0] + x
    if n == alpha.shape[0]:
        return top.astype(alpha.dtype)
    out = alpha.copy()
    out[:n] = top
    return out


@kernels.declare('crf1d_logsumexp')
def _crf1d_logsumexp(xp, a):
    """log sum_j exp(a[b, j]) for each row b."""
    af = _widen(a)
    m = af.max(axis=1, keepdims=True)
    return (m + xp.log(xp.exp(af - m).sum(axis=1, keepdims=True)))[
        :, 0].astype(a.dtype)


@kernels.declare('crf1d_score')
def _crf1d_score(xp, cost, xs, ys):
    """Score of the label sequences ys (one array per step, of the batch
    size of that step): sum_i xs[i][b, ys[i][b]] plus
    sum_i cost[ys[i-1][b], ys[i][b]], per sequence b."""
    score = xp.zeros(xs[0].shape[0], dtype=_util.float_type(cost.dtype))
    prev = None
    for x, y in zip(xs, ys):
        n = x.shape[0]
        step = xp.take_along_axis(_widen(x), y[:, None].astype(xp.intp),
                                  axis=1)[:, 0]
        if prev is not None:
            step = step + _widen(cost)[prev[:n], y]
        score[:n] += step
        prev = y
    return score.astype(cost.dtype)


@kernels.declare('argmax_crf1d')
def _argmax_crf1d(xp, cost, xs):
    """The highest-scoring label sequences (Viterbi): a tuple of one integer
    array per step, of the batch size of that step."""
    c = _widen(cost)
    best = _widen(xs[0])
    back = []
    for x in xs[1:]:
        n = x.shape[0]
        s = best[:n, :, None] + c[None]
        back.append(s.argmax(axis=1))
        top = s.max(axis=1) + x
        if n == best.shape[0]:
            best = top
        else:
            best = best.copy()
            best[:n] = top
    label = best.argmax(axis=1)
    path = [label]
    for b in reversed(back):
        n = b.shape[0]
        prev = label.copy()
        prev[:n] = xp.take_along_axis(b, label[:n, None], axis=1)[:, 0]
        label = prev
        path.append(label)
    lengths = [x.shape[0] for x in xs]
    return tuple(p[:n].astype(numpy.int32)
                 for p, n in zip(reversed(path), lengths))


class Crf1dStep(function_node.FunctionNode):
    """One differentiable step of the forward algorithm."""

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        alpha, cost, x = inputs
        return kernels.lookup('crf1d_step', alpha)(alpha, cost, x),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.activation.softmax import softmax
        from chainer_core.functions.array.get_item import (
            GetItemGrad, get_item)
        from chainer_core.functions.array.reshape import reshape
        from chainer_core.functions.math.sum import sum as sum_
        alpha, cost = self.get_retained_inputs()
        gy, = grad_outputs
        n_all, k = alpha.shape
        n = self.inputs[2].shape[0]
        rows = (slice(0, n),)
        head = alpha if n == n_all else get_item(alpha, rows)
        g_top = gy if n == n_all else get_item(gy, rows)
        scores = _util.broadcast_like(reshape(head, (n, k, 1)), (n, k, k)) + \
            _util.broadcast_like(reshape(cost, (1, k, k)), (n, k, k))
        # The weight of the transition i -> j in alpha'[b, j].
        flow = softmax(scores, axis=1) * \
            _util.broadcast_like(reshape(g_top, (n, 1, k)), (n, k, k))
        ret = []
        if 0 in indexes:
            g_alpha = sum_(flow, axis=2)
            if n != n_all:
                rest = (numpy.arange(n_all) >= n).astype(alpha.dtype)
                g_alpha = GetItemGrad(rows, (n_all, k)).apply((g_alpha,))[0] \
                    + gy * alpha.xp.asarray(rest)[:, None]
            ret.append(g_alpha)
        if 1 in indexes:
            ret.append(sum_(flow, axis=0))
        if 2 in indexes:
            ret.append(g_top)
        return tuple(ret)


class Crf1dLogSumExp(function_node.FunctionNode):
    """log-sum-exp over axis 1 of a 2-dim array."""

    def forward(self, inputs):
        self.retain_inputs((0,))
        a, = inputs
        return kernels.lookup('crf1d_logsumexp', a)(a),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.activation.softmax import softmax
        from chainer_core.functions.array.reshape import reshape
        a, = self.get_retained_inputs()
        gy = reshape(grad_outputs[0], (a.shape[0], 1))
        return _util.broadcast_like(gy, a.shape) * softmax(a, axis=1),


class Crf1dScore(function_node.FunctionNode):
    """Score of given label sequences; linear in the costs."""

    def __init__(self, ys):
        self.ys = ys

    def forward(self, inputs):
        cost, xs = inputs[0], inputs[1:]
        return kernels.lookup('crf1d_score', cost)(cost, xs, self.ys),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.get_item import get_item
        from chainer_core.functions.array.reshape import reshape
        from chainer_core.functions.math.matmul import matmul
        gy, = grad_outputs
        xp = gy.xp
        cost_node = self.inputs[0]
        k = cost_node.shape[0]
        dtype = cost_node.dtype
        ret = []
        for i in indexes:
            if i == 0:
                # pairs[b, p * k + q]: how often sequence b goes p -> q.
                pairs = xp.zeros((gy.shape[0], k * k), dtype=dtype)
                for prev, y in zip(self.ys[:-1], self.ys[1:]):
                    n = y.shape[0]
                    pairs[xp.arange(n), prev[:n] * k + y] += 1
                g = matmul(reshape(gy, (1, gy.shape[0])), pairs)
                ret.append(reshape(g, (k, k)))
                continue
            y = self.ys[i - 1]
            n = y.shape[0]
            onehot = (y[:, None] == xp.arange(k)[None]).astype(dtype)
            g_rows = gy if n == gy.shape[0] else \
                get_item(gy, (slice(0, n),))
            ret.append(_util.broadcast_like(reshape(g_rows, (n, 1)), (n, k))
                       * onehot)
        return tuple(ret)


def _check_inputs(func, cost, xs, ys=None):
    if not isinstance(xs, collections.abc.Sequence) or not len(xs):
        raise TypeError('{}: xs must be a non-empty list of Variables or '
                        'arrays, got {}'.format(func, type(xs).__name__))
    if cost.ndim != 2 or cost.shape[0] != cost.shape[1]:
        raise TypeError('{}: cost must be a square matrix (K, K), got shape '
                        '{}'.format(func, cost.shape))
    if cost.dtype.kind != 'f':
        raise TypeError('{}: cost must be a float array, got {}'.format(
            func, cost.dtype))
    k = cost.shape[0]
    previous = None
    for i, x in enumerate(xs):
        if x.ndim != 2 or x.shape[1] != k or x.dtype != cost.dtype:
            raise TypeError(
                '{}: xs[{}] must be a {} array of shape (B, {}), got {} {}'
                .format(func, i, cost.dtype, k, x.dtype, x.shape))
        if previous is not None and x.shape[0] > previous:
            raise ValueError(
                '{}: the batch sizes of xs must not increase (sequences '
                'sorted by decreasing length), but xs[{}] has {} rows after '
                '{}'.format(func, i, x.shape[0], previous))
        previous = x.shape[0]
    if ys is None:
        return None
    if not isinstance(ys, collections.abc.Sequence) or len(ys) != len(xs):
        raise TypeError('{}: ys must be a list of len(xs) = {} label '
                        'arrays'.format(func, len(xs)))
    out = []
    for i, (x, y) in enumerate(zip(xs, ys)):
        y = as_array(y)
        if not hasattr(y, 'dtype') or y.dtype.kind != 'i' or \
                y.shape != x.shape[:1]:
            raise TypeError(
                '{}: ys[{}] must be a signed integer array of shape ({},), '
                'got {} {}'.format(func, i, x.shape[0],
                                   getattr(y, 'dtype', type(y).__name__),
                                   getattr(y, 'shape', '')))
        if y.size and (int(y.min()) < 0 or int(y.max()) >= k):
            raise ValueError('{}: ys[{}] must hold labels in [0, {})'.format(
                func, i, k))
        out.append(y)
    return out


def crf1d(cost, xs, ys, reduce='mean'):
    """Negative log-likelihood of a linear-chain CRF.

    With transition costs :math:`c_{st}`, per-step costs :math:`x_{it}` and
    labels :math:`y_i` of a sequence of length :math:`l`,

    .. math::
        L = -\\left(\\sum_{i=1}^{l} x_{i y_i}
        + \\sum_{i=1}^{l-1} c_{y_i y_{i+1}} - \\log Z\\right),

    where the partition function :math:`Z` sums over every label sequence;
    it is computed by the forward algorithm in log space, for the whole
    batch at each step.

    Sequences of different lengths are given sorted by decreasing length and
    transposed: ``xs[i]`` holds step ``i`` of the sequences that are longer
    than ``i``, so the batch sizes of ``xs`` do not increase.

    Args:
        cost (Variable or array): transition costs ``(K, K)``, float16/32/64.
        xs (list of Variable or array): per-step costs, ``xs[i]`` of shape
            ``(B_i, K)`` with ``B_0 >= B_1 >= ...``, of ``cost``'s dtype.
        ys (list of Variable or array): labels, ``ys[i]`` signed integers of
            shape ``(B_i,)`` in ``[0, K)``.
        reduce (str): ``'mean'`` for the sum over sequences divided by
            ``B_0``, ``'no'`` for the losses of shape ``(B_0,)``.

    Returns:
        Variable: the loss, of ``cost``'s dtype; differentiable by ``cost``
        and ``xs`` (twice).
    """
    from chainer_core.functions.math.sum import sum as sum_
    from chainer_core.variable import as_variable
    _util.check_reduce('crf1d', reduce, ('mean', 'no'))
    cost = as_variable(cost)
    xs = [as_variable(x) for x in xs] if \
        isinstance(xs, collections.abc.Sequence) else xs
    ys = _check_inputs('crf1d', cost, xs, ys)
    alpha = xs[0]
    for x in xs[1:]:
        alpha = Crf1dStep().apply((alpha, cost, x))[0]
    logz = Crf1dLogSumExp().apply((alpha,))[0]
    score = Crf1dScore(ys).apply([cost] + xs)[0]
    loss = logz - score
    if reduce == 'mean':
        return sum_(loss) * (1.0 / xs[0].shape[0])
    return loss


def argmax_crf1d(cost, xs):
    """The most probable label sequences of a linear-chain CRF (Viterbi).

    Args:
        cost (Variable or array): transition costs ``(K, K)``.
        xs (list of Variable or array): per-step costs, as for :func:`crf1d`.

    Returns:
        tuple: ``(score, path)``: ``score`` is a Variable of shape ``(B_0,)``
        holding the score (unnormalised log-likelihood) of the best sequence
        of each batch element, differentiable by ``cost`` and ``xs``; ``path``
        is a list of ``len(xs)`` int32 arrays, ``path[i]`` of shape
        ``(B_i,)``, the best labels at step ``i``.
    """
    from chainer_core.variable import as_variable
    cost = as_variable(cost)
    xs = [as_variable(x) for x in xs] if \
        isinstance(xs, collections.abc.Sequence) else xs
    _check_inputs('argmax_crf1d', cost, xs)
    path = list(kernels.lookup('argmax_crf1d', cost.array)(
        cost.array, [x.array for x in xs]))
    score = Crf1dScore(path).apply([cost] + xs)[0]
    return score, path
