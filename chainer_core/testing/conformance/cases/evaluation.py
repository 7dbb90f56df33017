"""Cases of evaluation functions. They are not differentiable, so their
inputs are constants of the case (the gradient checks have nothing to
differentiate) and no input sits on a tie of argmax or on the sign
boundary."""
import numpy

import chainer_core
import chainer_core.functions as F

from . import Fixed, Floats, case


class Scores:
    """Scores (N, C, ...) whose argmax over axis 1 is ``labels`` and whose
    other entries are at least 0.1 lower, in the dtype under test."""

    def __init__(self, labels, n_class):
        self.labels, self.n_class = numpy.array(labels), n_class

    def make(self, rng, dtype):
        shape = (self.labels.shape[0], self.n_class) + self.labels.shape[1:]
        y = rng.uniform(-1.0, 0.0, shape)
        top = numpy.expand_dims(self.labels, 1)
        numpy.put_along_axis(y, top, 0.5, axis=1)
        return y.astype(dtype)


class Margins:
    """Scores of either sign at least 0.1 away from 0."""

    def __init__(self, shape):
        self.shape = shape

    def make(self, rng, dtype):
        sign = rng.choice((-1.0, 1.0), self.shape)
        return (sign * rng.uniform(0.1, 1.0, self.shape)).astype(dtype)


def _as(v, dtype):
    """The float64 ratios of classification_summary, in the dtype under
    test, so that the suite compares them at that dtype's precision."""
    return chainer_core.Variable(v.array.astype(dtype))


# -- accuracy

_pred = [0, 2, 1, 1, 0, 2]
for _id, _y, _t, _kw in (
        ('', Scores(_pred, 3), Fixed([0, 2, 0, 1, 1, 2]), {}),
        ('-ignore', Scores(_pred, 3), Fixed([0, -1, 0, 1, -1, 2]),
         {'ignore_label': -1}),
        ('-all-ignored', Scores(_pred, 3), Fixed([-1] * 6),
         {'ignore_label': -1}),
        ('-spatial', Scores([[0, 2], [1, 1]], 3), Fixed([[0, 1], [1, 1]]),
         {})):
    def _accuracy_ref(y, t, kw=_kw):
        valid = numpy.ones(t.shape, bool) if not kw else t != -1
        hits = (y.argmax(axis=1) == t) & valid
        return numpy.asarray(hits.sum() / max(valid.sum(), 1))
    case('accuracy' + _id, (),
         lambda y, t, kw=_kw: F.accuracy(y, t, **kw), _accuracy_ref,
         consts={'y': _y, 't': _t}, double=False)


# -- binary_accuracy

def _binary_accuracy_ref(y, t):
    valid = t != -1
    return numpy.asarray(((y >= 0) == t)[valid].sum() / max(valid.sum(), 1))


for _id, _t in (('', Fixed([[0, 1, 1], [1, 0, 0]])),
                ('-ignore', Fixed([[0, -1, 1], [-1, 0, 0]])),
                ('-all-ignored', Fixed([[-1, -1, -1], [-1, -1, -1]]))):
    case('binary_accuracy' + _id, (), F.binary_accuracy,
         _binary_accuracy_ref, consts={'y': Margins((2, 3)), 't': _t},
         double=False)


# -- classification_summary and its parts

def _summary_ref(y, t, label_num, beta=1.0):
    pred = y.argmax(axis=1)
    out = []
    for c in range(label_num):
        tp = ((pred == c) & (t == c)).sum()
        precision = tp / (pred == c).sum()
        recall = tp / (t == c).sum()
        fbeta = (1 + beta ** 2) * precision * recall / (
            beta ** 2 * precision + recall)
        out.append((precision, recall, fbeta))
    return numpy.array(out).T


_summary_y = Scores([0, 1, 1, 2, 0, 1, 2, 2], 3)
_summary_t = Fixed([0, 1, 2, 2, 1, 1, 0, -1])
for _i, _name in enumerate(('precision', 'recall', 'fbeta')):
    case('classification_summary-' + _name, (),
         lambda y, t, i=_i: _as(F.classification_summary(y, t)[i], y.dtype),
         lambda y, t, i=_i: _summary_ref(y[t != -1], t[t != -1], 3)[i],
         consts={'y': _summary_y, 't': _summary_t}, double=False)
    case('classification_summary-beta-{}'.format(_name), (),
         lambda y, t, i=_i: _as(F.classification_summary(
             y, t, label_num=3, beta=2.0)[i], y.dtype),
         lambda y, t, i=_i: _summary_ref(y[t != -1], t[t != -1], 3, 2.0)[i],
         consts={'y': _summary_y, 't': _summary_t}, double=False)
for _i, _fn in enumerate((F.precision, F.recall, F.f1_score)):
    case(_fn.__name__, (),
         lambda y, t, fn=_fn: _as(fn(y, t)[0], y.dtype),
         lambda y, t, i=_i: _summary_ref(y[t != -1], t[t != -1], 3)[i],
         consts={'y': _summary_y, 't': _summary_t}, double=False)


# -- r2_score

def _r2_ref(pred, true, sample_weight=None, multioutput='uniform_average'):
    w = numpy.ones(len(true)) if sample_weight is None else sample_weight
    w = w.reshape((-1,) + (1,) * (true.ndim - 1))
    mean = (w * true).sum(axis=0) / w.sum()
    score = 1 - (w * (true - pred) ** 2).sum(axis=0) / \
        (w * (true - mean) ** 2).sum(axis=0)
    return numpy.asarray(score.mean() if multioutput == 'uniform_average'
                         else score)


for _id, _shape, _kw in (('', (5, 3), {}),
                         ('-raw', (5, 3), {'multioutput': 'raw_values'}),
                         ('-1d', (6,), {}),
                         ('-3d-raw', (4, 2, 2),
                          {'multioutput': 'raw_values'})):
    case('r2_score' + _id, (),
         lambda pred, true, kw=_kw: F.r2_score(pred, true, **kw),
         lambda pred, true, kw=_kw: _r2_ref(pred, true, **kw),
         consts={'pred': Floats(_shape), 'true': Floats(_shape)},
         double=False)
case('r2_score-sample_weight', (),
     lambda pred, true, w: F.r2_score(pred, true, sample_weight=w,
                                      multioutput='raw_values'),
     lambda pred, true, w: _r2_ref(pred, true, w, 'raw_values'),
     consts={'pred': Floats((5, 3)), 'true': Floats((5, 3)),
             'w': Floats((5,), 0.5, 2.0)}, double=False)
case('r2_score-constant-true', (),
     lambda pred, true: F.r2_score(pred, true, multioutput='raw_values'),
     lambda pred, true: numpy.zeros(3),
     consts={'pred': Floats((4, 3)),
             'true': Fixed([[1.5, 0, 2]] * 4, numpy.float32)},
     double=False)
