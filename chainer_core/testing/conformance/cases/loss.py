"""Cases of losses."""
import itertools

import numpy

import chainer_core.functions as F

from .activation import _log_softmax_ref
from . import Fixed, Floats, Ints, Signed, case, f16

# -- losses

case('mean_squared_error', (Floats((3, 4)), Floats((3, 4))),
     F.mean_squared_error, lambda a, b: ((a - b) ** 2).sum() / a.size)
case('mean_squared_error-3d', (Floats((2, 3, 2)), Floats((2, 3, 2))),
     F.mean_squared_error, lambda a, b: ((a - b) ** 2).sum() / a.size)


def _sce_ref(x, t, class_weight=None, ignore_label=-1, normalize=True,
             reduce='mean'):
    """Cross entropy per label from an explicit log-softmax over axis 1."""
    log_p = _log_softmax_ref(x, 1)
    valid = t != ignore_label
    safe_t = numpy.where(valid, t, 0)
    losses = numpy.zeros(t.shape)
    for pos in numpy.ndindex(t.shape):
        if valid[pos]:
            label = safe_t[pos]
            w = 1.0 if class_weight is None else class_weight[label]
            losses[pos] = -w * log_p[(pos[0], label) + pos[1:]]
    if reduce == 'no':
        return losses
    count = valid.sum() if normalize else x.shape[0]
    return numpy.asarray(losses.sum() / max(count, 1))


_SCE_TOL = {f16: dict(atol=5e-3, rtol=5e-3)}
_labels = Fixed([0, -1, 2, 1])
for _id, _x, _t, _kw, _double in (
        ('', (4, 3), Ints((4,), 0, 3), {}, False),
        ('-ignore', (4, 3), _labels, {}, False),
        ('-ignore-custom', (4, 3), Fixed([0, 2, 2, 1]),
         {'ignore_label': 2}, False),
        ('-no-normalize', (4, 3), _labels, {'normalize': False}, False),
        ('-reduce-no', (4, 3), _labels, {'reduce': 'no'}, False),
        ('-spatial', (2, 3, 2), Fixed([[0, 2], [-1, 1]]), {}, False),
        ('-all-ignored', (2, 3), Fixed([-1, -1]), {}, False),
        ('-double', (4, 3), _labels, {'enable_double_backprop': True}, True),
        ('-double-reduce-no', (4, 3), _labels,
         {'enable_double_backprop': True, 'reduce': 'no'}, True)):
    _ref_kw = {k: v for k, v in _kw.items()
               if k != 'enable_double_backprop'}
    case('softmax_cross_entropy' + _id, (Floats(_x, -2.0, 2.0), _t),
         lambda x, t, kw=_kw: F.softmax_cross_entropy(x, t, **kw),
         lambda x, t, kw=_ref_kw: _sce_ref(x, t, **kw),
         double=_double, fwd=_SCE_TOL)
for _id, _kw, _double in (('', {}, False),
                          ('-reduce-no', {'reduce': 'no'}, False),
                          ('-double', {'enable_double_backprop': True}, True)):
    # The weights follow the dtype of x, as the numerical check casts x.
    case('softmax_cross_entropy-class_weight' + _id,
         (Floats((4, 3), -2.0, 2.0), _labels),
         lambda x, t, cw, kw=_kw: F.softmax_cross_entropy(
             x, t, class_weight=cw.astype(x.dtype), **kw),
         lambda x, t, cw, kw=_kw: _sce_ref(
             x, t, class_weight=cw,
             **{k: v for k, v in kw.items()
                if k != 'enable_double_backprop'}),
         consts={'cw': Floats((3,), 0.5, 2.0)}, double=_double, fwd=_SCE_TOL)


# -- generators of the second loss set

class Distributions:
    """Target distributions over axis 1 (positive, summing to 1), in the
    dtype under test."""

    def __init__(self, shape):
        self.shape = shape

    def make(self, rng, dtype):
        e = numpy.exp(rng.normal(size=self.shape))
        return (e / e.sum(axis=1, keepdims=True)).astype(dtype)


class Bands:
    """Floats of random sign whose magnitude lies in one of ``bands``
    (pairs ``(low, high)``): keeps differences away from a loss's kinks."""

    def __init__(self, shape, bands):
        self.shape, self.bands = shape, bands

    def make(self, rng, dtype):
        pick = rng.randint(0, len(self.bands), self.shape)
        low = numpy.array([b[0] for b in self.bands])[pick]
        high = numpy.array([b[1] for b in self.bands])[pick]
        sign = rng.choice((-1.0, 1.0), self.shape)
        return (sign * rng.uniform(low, high)).astype(dtype)


def _softplus(a):
    return numpy.maximum(a, 0) + numpy.log1p(numpy.exp(-numpy.abs(a)))


def _mean(losses, reduce):
    return losses if reduce == 'no' else numpy.asarray(losses.mean())


# -- softmax_cross_entropy with soft targets (t is a constant: not
# differentiated, as in Chainer)

def _soft_ref(x, t, class_weight=None, soft_target_loss='cross-entropy',
              reduce='mean'):
    log_p = _log_softmax_ref(x, 1)
    w = numpy.ones(x.shape[1]) if class_weight is None else class_weight
    w = w.reshape((1, -1) + (1,) * (x.ndim - 2))
    losses = -(w * t * log_p).sum(axis=1)
    if soft_target_loss == 'kl-divergence':
        losses += (t * numpy.log(t + 1e-7)).sum(axis=1)
    return _mean(losses, reduce)


for _id, _shape, _kw, _double in (
        ('', (4, 3), {}, False),
        ('-kl', (4, 3), {'soft_target_loss': 'kl-divergence'}, False),
        ('-reduce-no', (4, 3), {'reduce': 'no'}, False),
        ('-kl-reduce-no', (4, 3),
         {'soft_target_loss': 'kl-divergence', 'reduce': 'no'}, False),
        ('-spatial', (2, 3, 2), {}, False),
        ('-double', (4, 3), {'enable_double_backprop': True}, True),
        ('-double-kl-reduce-no', (4, 3),
         {'enable_double_backprop': True, 'reduce': 'no',
          'soft_target_loss': 'kl-divergence'}, True)):
    case('softmax_cross_entropy-soft' + _id, (Floats(_shape, -2.0, 2.0),),
         lambda x, t, kw=_kw: F.softmax_cross_entropy(x, t, **kw),
         lambda x, t, kw=_kw: _soft_ref(
             x, t, **{k: v for k, v in kw.items()
                      if k != 'enable_double_backprop'}),
         consts={'t': Distributions(_shape)}, double=_double, fwd=_SCE_TOL)
case('softmax_cross_entropy-soft-class_weight', (Floats((4, 3), -2.0, 2.0),),
     lambda x, t, cw: F.softmax_cross_entropy(x, t,
                                              class_weight=cw.astype(x.dtype)),
     lambda x, t, cw: _soft_ref(x, t, class_weight=cw),
     consts={'t': Distributions((4, 3)), 'cw': Floats((3,), 0.5, 2.0)},
     double=False, fwd=_SCE_TOL)


# -- sigmoid_cross_entropy

def _sigmoid_ce_ref(x, t, normalize=True, reduce='mean', ignore_label=-1):
    valid = t != ignore_label
    losses = numpy.where(valid, _softplus(x) - x * t, 0.0)
    if reduce == 'no':
        return losses
    count = valid.sum() if normalize else x.shape[0]
    return numpy.asarray(losses.sum() / max(count, 1))


_binary_labels = Fixed([[0, 1, -1, 1], [1, 0, 0, -1], [-1, 1, 1, 0]])
for _id, _t, _kw in (
        ('', _binary_labels, {}),
        ('-no-normalize', _binary_labels, {'normalize': False}),
        ('-reduce-no', _binary_labels, {'reduce': 'no'}),
        ('-ignore-custom', Fixed([[0, 1, 2, 1], [1, 0, 0, 2], [2, 1, 1, 0]]),
         {'ignore_label': 2}),
        ('-all-ignored', Fixed([[-1, -1], [-1, -1]]), {})):
    _shape = (2, 2) if _id == '-all-ignored' else (3, 4)
    case('sigmoid_cross_entropy' + _id, (Floats(_shape, -3.0, 3.0), _t),
         lambda x, t, kw=_kw: F.sigmoid_cross_entropy(x, t, **kw),
         lambda x, t, kw=_kw: _sigmoid_ce_ref(x, t, **kw))


# -- elementwise and mean errors (the difference stays away from 0)

_error_inputs = (Signed((3, 4), 0.5, 1.0), Floats((3, 4), -0.3, 0.3))
case('mean_absolute_error', _error_inputs, F.mean_absolute_error,
     lambda a, b: numpy.asarray(numpy.abs(a - b).mean()))
case('mean_absolute_error-3d',
     (Signed((2, 3, 2), 0.5, 1.0), Floats((2, 3, 2), -0.3, 0.3)),
     F.mean_absolute_error,
     lambda a, b: numpy.asarray(numpy.abs(a - b).mean()))
case('absolute_error', _error_inputs, F.absolute_error,
     lambda a, b: numpy.abs(a - b))
case('squared_error', (Floats((3, 4)), Floats((3, 4))), F.squared_error,
     lambda a, b: (a - b) ** 2)
case('squared_error-3d', (Floats((2, 3, 2)), Floats((2, 3, 2))),
     F.squared_error, lambda a, b: (a - b) ** 2)


# -- huber_loss: |x - t| is either inside [0, 0.35] or outside
# [0.75, 1.5] of delta = 0.55

def _huber_ref(x, t, delta, reduce='sum_along_second_axis'):
    a = numpy.abs(x - t)
    y = numpy.where(a <= delta, a * a / 2, delta * (a - delta / 2))
    return y.sum(axis=1) if reduce == 'sum_along_second_axis' else y


_huber_inputs = (Floats((3, 4), -0.05, 0.05),
                 Bands((3, 4), ((0.0, 0.3), (0.8, 1.45))))
case('huber_loss', _huber_inputs,
     lambda x, t: F.huber_loss(x, t, delta=0.55),
     lambda x, t: _huber_ref(x, t, 0.55))
case('huber_loss-reduce-no', _huber_inputs,
     lambda x, t: F.huber_loss(x, t, delta=0.55, reduce='no'),
     lambda x, t: _huber_ref(x, t, 0.55, 'no'))
case('huber_loss-3d',
     (Floats((2, 3, 2), -0.05, 0.05),
      Bands((2, 3, 2), ((0.0, 0.3), (0.8, 1.45)))),
     lambda x, t: F.huber_loss(x, t, delta=0.55),
     lambda x, t: _huber_ref(x, t, 0.55))


# -- hinge: scores keep clear of +-1, where max(0, 1 -+ x) bends

def _hinge_ref(x, t, norm='L1', reduce='mean'):
    sign = numpy.ones(x.shape)
    sign[numpy.arange(len(t)), t] = -1
    loss = numpy.maximum(0, 1 + sign * x)
    if norm == 'L2':
        loss = loss ** 2
    return loss if reduce == 'no' else numpy.asarray(loss.sum() / len(t))


for _norm in ('L1', 'L2'):
    for _reduce in ('mean', 'no'):
        case('hinge-{}-{}'.format(_norm, _reduce),
             (Bands((4, 3), ((0.0, 0.7), (1.3, 2.0))), Fixed([0, 2, 1, 2])),
             lambda x, t, n=_norm, r=_reduce: F.hinge(x, t, n, r),
             lambda x, t, n=_norm, r=_reduce: _hinge_ref(x, t, n, r))


# -- contrastive: close pairs (all within the margin) and far pairs (all
# beyond it), each with both labels

def _contrastive_ref(x0, x1, y, margin, reduce='mean'):
    d = numpy.sqrt(((x0 - x1) ** 2).sum(axis=1))
    losses = (y * d ** 2 + (1 - y) * numpy.maximum(margin - d, 0) ** 2) / 2
    return _mean(losses, reduce)


_pair_labels = Fixed([1, 0, 0, 1])
for _id, _inputs, _margin in (
        ('-close', (Floats((4, 3), -0.2, 0.2), Floats((4, 3), -0.2, 0.2)),
         1.0),
        ('-far', (Floats((4, 3), 0.5, 1.0), Floats((4, 3), -1.0, -0.5)),
         1.0)):
    for _reduce in ('mean', 'no'):
        case('contrastive{}-{}'.format(_id, _reduce),
             _inputs + (_pair_labels,),
             lambda x0, x1, y, m=_margin, r=_reduce: F.contrastive(
                 x0, x1, y, margin=m, reduce=r),
             lambda x0, x1, y, m=_margin, r=_reduce: _contrastive_ref(
                 x0, x1, y, m, r))


# -- triplet: every triplet violating the margin, or none

def _triplet_ref(a, p, n, margin, reduce='mean'):
    d = ((a - p) ** 2).sum(axis=1) - ((a - n) ** 2).sum(axis=1)
    return _mean(numpy.maximum(d + margin, 0), reduce)


_near, _far = Floats((3, 4), -0.1, 0.1), Floats((3, 4), 0.5, 1.0)
for _id, _inputs in (('-active', (_near, _far, _near)),
                     ('-inactive', (_near, _near, _far))):
    for _reduce in ('mean', 'no'):
        case('triplet{}-{}'.format(_id, _reduce), _inputs,
             lambda a, p, n, r=_reduce: F.triplet(a, p, n, margin=0.2,
                                                  reduce=r),
             lambda a, p, n, r=_reduce: _triplet_ref(a, p, n, 0.2, r))


# -- covariance penalties

def _cov(y, z):
    yc, zc = y - y.mean(axis=0), z - z.mean(axis=0)
    return yc.T.dot(zc) / len(y)


case('cross_covariance', (Floats((5, 3)), Floats((5, 2))),
     F.cross_covariance,
     lambda y, z: numpy.asarray((_cov(y, z) ** 2).sum() / 2))
case('cross_covariance-reduce-no', (Floats((5, 3)), Floats((5, 2))),
     lambda y, z: F.cross_covariance(y, z, reduce='no'), _cov)


def _decov_ref(h, reduce='half_squared_sum'):
    c = _cov(h, h)
    numpy.fill_diagonal(c, 0)
    return numpy.asarray((c ** 2).sum() / 2) if reduce != 'no' else c


case('decov', (Floats((5, 3)),), F.decov, _decov_ref)
case('decov-reduce-no', (Floats((5, 3)),),
     lambda h: F.decov(h, reduce='no'), lambda h: _decov_ref(h, 'no'))


# -- losses of variational auto-encoders

def _sum(losses, reduce):
    return losses if reduce == 'no' else numpy.asarray(losses.sum())


for _reduce in ('sum', 'no'):
    case('gaussian_kl_divergence-' + _reduce,
         (Floats((3, 4)), Floats((3, 4))),
         lambda m, v, r=_reduce: F.gaussian_kl_divergence(m, v, reduce=r),
         lambda m, v, r=_reduce: _sum(
             (m ** 2 + numpy.exp(v) - v - 1) / 2, r))
    case('bernoulli_nll-' + _reduce,
         (Floats((3, 4), 0.0, 1.0), Floats((3, 4), -3.0, 3.0)),
         lambda x, y, r=_reduce: F.bernoulli_nll(x, y, reduce=r),
         lambda x, y, r=_reduce: _sum(
             -x * numpy.log(1 / (1 + numpy.exp(-y)))
             - (1 - x) * numpy.log(1 / (1 + numpy.exp(y))), r))
    case('gaussian_nll-' + _reduce,
         (Floats((3, 4)), Floats((3, 4)), Floats((3, 4))),
         lambda x, m, v, r=_reduce: F.gaussian_nll(x, m, v, reduce=r),
         lambda x, m, v, r=_reduce: _sum(
             numpy.log(2 * numpy.pi * numpy.exp(v)) / 2
             + (x - m) ** 2 / (2 * numpy.exp(v)), r))


# The parameters broadcast against the observations.
case('gaussian_kl_divergence-broadcast', (Floats((3, 4)), Floats((4,))),
     F.gaussian_kl_divergence,
     lambda m, v: numpy.asarray(((m ** 2 + numpy.exp(v) - v - 1) / 2).sum()))
case('bernoulli_nll-broadcast',
     (Floats((3, 4), 0.0, 1.0), Floats((3, 1), -3.0, 3.0)),
     lambda x, y: F.bernoulli_nll(x, y, reduce='no'),
     lambda x, y: _softplus(y) - x * y)
case('gaussian_nll-broadcast', (Floats((3, 4)), Floats((4,)), Floats((1, 4))),
     lambda x, m, v: F.gaussian_nll(x, m, v, reduce='no'),
     lambda x, m, v: (numpy.log(2 * numpy.pi) + v
                      + (x - m) ** 2 * numpy.exp(-v)) / 2)


# -- connectionist_temporal_classification: the reference sums the
# probabilities of every alignment of every sequence

def _ctc_ref(*xs, t, blank, input_length=None, label_length=None,
             reduce='mean'):
    x = numpy.stack(xs)
    n_step, n_batch, n_vocab = x.shape
    losses = []
    for b in range(n_batch):
        steps = n_step if input_length is None else input_length[b]
        labels = list(t[b] if label_length is None
                      else t[b, :label_length[b]])
        log_p = _log_softmax_ref(x[:steps, b], 1)
        total = 0.0
        for align in itertools.product(range(n_vocab), repeat=steps):
            collapsed = [s for i, s in enumerate(align)
                         if s != blank and (i == 0 or s != align[i - 1])]
            if collapsed == labels:
                total += numpy.exp(log_p[numpy.arange(steps), align].sum())
        losses.append(-numpy.log(total))
    return _mean(numpy.array(losses), reduce)


_ctc_labels = Fixed([[1, 2], [1, 1], [2, 1]])
_ctc_steps = tuple(Floats((3, 3), -2.0, 2.0) for _ in range(4))
for _id, _kw in (
        ('', {}),
        ('-reduce-no', {'reduce': 'no'}),
        ('-lengths', {'input_length': Fixed([4, 3, 2]),
                      'label_length': Fixed([2, 2, 1])}),
        ('-empty-label', {'label_length': Fixed([0, 1, 2]), 'reduce': 'no'})):
    case('connectionist_temporal_classification' + _id, _ctc_steps,
         lambda *xs, t, **kw: F.connectionist_temporal_classification(
             list(xs), t, 0, **kw),
         lambda *xs, t, **kw: _ctc_ref(*xs, t=t, blank=0, **kw),
         consts=dict(_kw, t=_ctc_labels),
         double=False)
case('connectionist_temporal_classification-blank-last', _ctc_steps,
     lambda *xs, t: F.connectionist_temporal_classification(list(xs), t, 2),
     lambda *xs, t: _ctc_ref(*xs, t=t, blank=2),
     consts={'t': Fixed([[0, 1], [1, 1], [0, 0]])}, double=False)


# -- crf1d and argmax_crf1d: the reference enumerates every label sequence;
# the batch shrinks from 3 to 1 along the steps

def _crf_paths(cost, xs, b):
    length = sum(1 for x in xs if x.shape[0] > b)
    paths = list(itertools.product(range(cost.shape[0]), repeat=length))
    scores = numpy.array([
        sum(xs[i][b, p[i]] for i in range(length))
        + sum(cost[p[i - 1], p[i]] for i in range(1, length))
        for p in paths])
    return paths, scores


def _crf1d_ref(cost, *args, reduce='mean'):
    xs, ys = args[:len(args) // 2], args[len(args) // 2:]
    losses = []
    for b in range(xs[0].shape[0]):
        paths, scores = _crf_paths(cost, xs, b)
        gold = tuple(int(y[b]) for y in ys if y.shape[0] > b)
        log_z = numpy.log(numpy.exp(scores).sum())
        losses.append(log_z - scores[paths.index(gold)])
    losses = numpy.array(losses)
    return losses if reduce == 'no' else numpy.asarray(
        losses.sum() / xs[0].shape[0])


def _argmax_crf1d_ref(cost, *xs):
    return numpy.array([_crf_paths(cost, xs, b)[1].max()
                        for b in range(xs[0].shape[0])])


_crf_inputs = (Floats((3, 3)), Floats((3, 3)), Floats((3, 3)),
               Floats((2, 3)), Floats((1, 3)))
_crf_labels = {'y0': Fixed([0, 1, 2]), 'y1': Fixed([2, 2, 0]),
               'y2': Fixed([1, 0]), 'y3': Fixed([2])}
for _reduce in ('mean', 'no'):
    case('crf1d-' + _reduce, _crf_inputs,
         lambda c, *xs, y0, y1, y2, y3, r=_reduce: F.crf1d(
             c, list(xs), [y0, y1, y2, y3], reduce=r),
         lambda c, *xs, y0, y1, y2, y3, r=_reduce: _crf1d_ref(
             c, *xs, y0, y1, y2, y3, reduce=r),
         consts=_crf_labels)
case('crf1d-one-step', (Floats((3, 3)), Floats((2, 3))),
     lambda c, x, y0: F.crf1d(c, [x], [y0]),
     lambda c, x, y0: _crf1d_ref(c, x, y0), consts={'y0': Fixed([1, 2])})
case('argmax_crf1d', _crf_inputs,
     lambda c, *xs: F.argmax_crf1d(c, list(xs))[0], _argmax_crf1d_ref)


# -- sampled losses: the samples are constants

def _sampled_scores_ref(x, W, ids):
    return numpy.einsum('bkd,bd->bk', W[ids], x)


def _negative_sampling_ref(x, W, t, samples, reduce='sum'):
    ids = samples.copy()
    ids[:, 0] = numpy.where(t == -1, 0, t)
    f = _sampled_scores_ref(x, W, ids)
    f[:, 0] *= -1
    losses = numpy.where(t == -1, 0, _softplus(f).sum(axis=1))
    return _sum(losses, reduce)


for _reduce in ('sum', 'no'):
    case('negative_sampling-' + _reduce,
         (Floats((3, 4)), Floats((6, 4))),
         lambda x, W, t, samples, r=_reduce: F.negative_sampling(
             x, t, W, lambda shape: samples, 2, reduce=r),
         lambda x, W, t, samples, r=_reduce: _negative_sampling_ref(
             x, W, t, samples, r),
         consts={'t': Fixed([1, -1, 4]),
                 'samples': Fixed([[0, 2, 5], [1, 1, 3], [4, 0, 4]])})


def _black_out_ref(x, W, t, samples, reduce='mean'):
    ids = numpy.concatenate([t[:, None], samples], axis=1)
    p = numpy.exp(_log_softmax_ref(_sampled_scores_ref(x, W, ids), 1))
    losses = -numpy.log(p[:, 0]) - numpy.log(1 - p[:, 1:]).sum(axis=1)
    return _mean(losses, reduce)


for _reduce in ('mean', 'no'):
    case('black_out-' + _reduce, (Floats((3, 4)), Floats((6, 4))),
         lambda x, W, t, samples, r=_reduce: F.black_out(
             x, t, W, samples, reduce=r),
         lambda x, W, t, samples, r=_reduce: _black_out_ref(
             x, W, t, samples, r),
         consts={'t': Fixed([1, 3, 4]),
                 'samples': Fixed([[0, 2], [1, 5], [4, 0]])})


# -- discriminative_margin_based_clustering_loss, term by term; instance 2
# is absent from the second image

def _discriminative_ref(emb, labels, delta_v, delta_d, norm, weights):
    n_batch, n_inst = emb.shape[:2]
    size = (lambda v: numpy.abs(v).sum()) if norm == 1 else \
        (lambda v: numpy.sqrt((v ** 2).sum()))
    means = numpy.zeros((n_inst, n_batch, n_inst))
    for c in range(n_inst):
        for b in range(n_batch):
            mask = labels[b] == c + 1
            if mask.any():
                means[c, b] = emb[b][:, mask].mean(axis=1)
    l_var = 0.0
    for c in range(n_inst):
        pull = 0.0
        for b in range(n_batch):
            for pixel in emb[b][:, labels[b] == c + 1].T:
                pull += max(size(means[c, b] - pixel) - delta_v, 0) ** 2
        l_var += pull / max((labels == c + 1).sum(), 1)
    l_var /= n_inst
    pairs = [(a, b) for a in range(n_inst) for b in range(a + 1, n_inst)]
    l_dist = sum(max(2 * delta_d - size(means[a, i] - means[b, i]), 0) ** 2
                 for a, b in pairs for i in range(n_batch))
    l_dist /= max(len(pairs) * n_batch, 1)
    l_reg = sum(size(means[c]) for c in range(n_inst)) / (n_inst * n_batch)
    return tuple(w * v for w, v in zip(weights, (l_var, l_dist, l_reg)))


_instance_labels = Fixed([[[0, 1, 1, 2], [3, 3, 1, 0], [2, 2, 3, 1]],
                          [[1, 1, 0, 3], [3, 0, 1, 1], [0, 3, 3, 1]]])
for _norm in (1, 2):
    for _term, _name in enumerate(('variance', 'distance', 'regularization')):
        case('discriminative_margin_based_clustering_loss-L{}-{}'.format(
                _norm, _name),
             (Floats((2, 3, 3, 4), -1.0, 1.0),),
             lambda e, labels, n=_norm, i=_term:
                 F.discriminative_margin_based_clustering_loss(
                     e, labels, 0.1, 0.8, 3, n, 1.0, 0.5, 0.1)[i],
             lambda e, labels, n=_norm, i=_term: numpy.asarray(
                 _discriminative_ref(e, labels, 0.1, 0.8, n,
                                     (1.0, 0.5, 0.1))[i]),
             consts={'labels': _instance_labels})
