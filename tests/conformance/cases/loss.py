"""Cases of losses."""
import numpy

import chainer_core.functions as F

from .activation import _log_softmax_ref
from . import Fixed, Floats, Ints, case, f16

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

