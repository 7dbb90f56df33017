"""Cases of normalization functions."""
import numpy

import chainer_core.functions as F

from . import Fixed, Floats, case, f16, f32


def _channel_shape(x, axis):
    return [1 if i in axis else s for i, s in enumerate(x.shape)]


def _standardized(x, axis, eps):
    mean = x.mean(axis=axis, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axis, keepdims=True)
    return (x - mean) / numpy.sqrt(var + eps)


def _bn_axes(x, gamma, axis):
    if axis is None:
        return (0,) + tuple(range(gamma.ndim + 1, x.ndim))
    if isinstance(axis, int):
        axis = (axis,)
    return tuple(a % x.ndim for a in axis)


def _bn_ref(x, gamma, beta, axis=None, eps=2e-5):
    axes = _bn_axes(x, gamma, axis)
    shape = _channel_shape(x, axes)
    return gamma.reshape(shape) * _standardized(x, axes, eps) + \
        beta.reshape(shape)


def _gamma(shape):
    return Floats(shape, 0.5, 1.5)


# -- batch_normalization: default axes, spatial axes, 2-D gamma, axis=

for _id, _x, _g, _axis in (
        ('', (5, 3), (3,), None),
        ('-4d', (3, 2, 2, 2), (2,), None),
        ('-2d-gamma', (4, 3, 2, 2), (3, 2), None),
        ('-axis-tuple', (3, 4, 2), (4,), (0, 2)),
        ('-axis-int', (3, 4, 2), (4, 2), 0),
        ('-axis-last', (3, 4), (3,), -1)):
    case('batch_normalization' + _id,
         (Floats(_x), _gamma(_g), Floats(_g)),
         lambda x, g, b, a=_axis: F.batch_normalization(x, g, b, axis=a),
         lambda x, g, b, a=_axis: _bn_ref(x, g, b, a))

case('batch_normalization-eps',
     (Floats((4, 3), -0.1, 0.1), _gamma((3,)), Floats((3,))),
     lambda x, g, b: F.batch_normalization(x, g, b, eps=1e-2),
     lambda x, g, b: _bn_ref(x, g, b, eps=1e-2))


def _fixed_bn_ref(x, gamma, beta, mean, var, axis=None, eps=2e-5):
    shape = _channel_shape(x, _bn_axes(x, gamma, axis))

    def r(a):
        return a.reshape(shape)
    return r(gamma) * (x - r(mean)) / numpy.sqrt(r(var) + eps) + r(beta)


for _id, _x, _g, _axis in (('', (4, 3), (3,), None),
                           ('-4d', (2, 3, 2, 2), (3,), None),
                           ('-axis', (3, 4, 2), (4,), (0, 2))):
    case('fixed_batch_normalization' + _id,
         (Floats(_x), _gamma(_g), Floats(_g), Floats(_g, -0.5, 0.5),
          Floats(_g, 0.5, 1.5)),
         lambda x, g, b, m, v, a=_axis: F.fixed_batch_normalization(
             x, g, b, m, v, axis=a),
         lambda x, g, b, m, v, a=_axis: _fixed_bn_ref(x, g, b, m, v, a))


# -- batch_renormalization. r and d are constants when differentiating, so
# the running statistics are chosen far enough from the batch's that r and
# d sit at their bounds: the gradient is then the true derivative.

def _brn_ref(x, gamma, beta, rmax, dmax, running_mean, running_var,
             eps=2e-5):
    axes = (0,) + tuple(range(gamma.ndim + 1, x.ndim))
    shape = _channel_shape(x, axes)
    mean = x.mean(axis=axes).reshape(gamma.shape)
    std = numpy.sqrt(x.var(axis=axes).reshape(gamma.shape) + eps)
    running_std = numpy.sqrt(running_var + eps)
    r = numpy.clip(std / running_std, 1 / rmax, rmax)
    d = numpy.clip((mean - running_mean) / running_std, -dmax, dmax)
    xhat = _standardized(x, axes, eps)
    return gamma.reshape(shape) * (xhat * r.reshape(shape) +
                                   d.reshape(shape)) + beta.reshape(shape)


_RUNNING = dict(rm=Fixed([1.0, -100.0, 1.0], numpy.float32),
                rv=Fixed([1e-2, 1e2, 1e-2], numpy.float32))
case('batch_renormalization',
     (Floats((5, 3)), _gamma((3,)), Floats((3,))),
     lambda x, g, b, rm, rv: F.batch_renormalization(
         x, g, b, 1.5, 0.5, running_mean=rm.astype(x.dtype),
         running_var=rv.astype(x.dtype)),
     lambda x, g, b, rm, rv: _brn_ref(x, g, b, 1.5, 0.5, rm, rv),
     consts=_RUNNING)
case('batch_renormalization-4d',
     (Floats((2, 3, 2, 2)), _gamma((3,)), Floats((3,))),
     lambda x, g, b, rm, rv: F.batch_renormalization(
         x, g, b, 2.0, 0.25, running_mean=rm.astype(x.dtype),
         running_var=rv.astype(x.dtype)),
     lambda x, g, b, rm, rv: _brn_ref(x, g, b, 2.0, 0.25, rm, rv),
     consts=_RUNNING)


# -- layer and group normalization

case('layer_normalization', (Floats((3, 4)), _gamma((4,)), Floats((4,))),
     F.layer_normalization,
     lambda x, g, b: g * _standardized(x, (1,), 1e-5) + b)
case('layer_normalization-eps',
     (Floats((3, 4), -0.1, 0.1), _gamma((4,)), Floats((4,))),
     lambda x, g, b: F.layer_normalization(x, g, b, eps=1e-2),
     lambda x, g, b: g * _standardized(x, (1,), 1e-2) + b)


def _gn_ref(x, groups, gamma, beta, eps=1e-5):
    n, c = x.shape[:2]
    xhat = _standardized(x.reshape(n, groups, -1), (2,), eps)
    shape = (1, c) + (1,) * (x.ndim - 2)
    return xhat.reshape(x.shape) * gamma.reshape(shape) + \
        beta.reshape(shape)


for _id, _x, _groups in (('', (2, 4, 3), 2), ('-4d', (2, 6, 2, 2), 3),
                         ('-one-group', (3, 4, 2), 1),
                         ('-channelwise', (2, 3, 4), 3)):
    case('group_normalization' + _id,
         (Floats(_x), _gamma((_x[1],)), Floats((_x[1],))),
         lambda x, g, b, gr=_groups: F.group_normalization(x, gr, g, b),
         lambda x, g, b, gr=_groups: _gn_ref(x, gr, g, b))


# -- local response normalization

def _lrn_ref(x, n=5, k=2.0, alpha=1e-4, beta=0.75):
    c = x.shape[1]
    y = numpy.empty_like(x)
    for i in range(c):
        lo, hi = max(0, i - n // 2), min(c, i + n // 2 + 1)
        s = (x[:, lo:hi] ** 2).sum(axis=1)
        y[:, i] = x[:, i] / (k + alpha * s) ** beta
    return y


case('local_response_normalization', (Floats((2, 7, 2), -2.0, 2.0),),
     F.local_response_normalization, _lrn_ref)
for _id, _n, _k, _alpha, _beta in (('-n3', 3, 1.0, 0.5, 0.75),
                                   ('-n4', 4, 1.5, 0.3, 0.5),
                                   ('-wide', 9, 1.0, 0.2, 1.25)):
    case('local_response_normalization' + _id,
         (Floats((2, 5, 3)),),
         lambda x, n=_n, k=_k, a=_alpha, b=_beta:
             F.local_response_normalization(x, n, k, a, b),
         lambda x, n=_n, k=_k, a=_alpha, b=_beta: _lrn_ref(x, n, k, a, b))


# -- normalize (L2)

def _normalize_ref(x, axis=1, eps=1e-5):
    return x / (numpy.sqrt((x * x).sum(axis=axis, keepdims=True)) + eps)


for _id, _x, _axis in (('', (3, 4), 1), ('-axis0', (3, 4), 0),
                       ('-axes', (2, 3, 4), (1, 2)),
                       ('-neg-axis', (2, 3, 4), -1)):
    case('normalize' + _id, (Floats(_x),),
         lambda x, a=_axis: F.normalize(x, axis=a),
         lambda x, a=_axis: _normalize_ref(x, a))
case('normalize-eps', (Floats((3, 4), -0.1, 0.1),),
     lambda x: F.normalize(x, eps=0.1),
     lambda x: _normalize_ref(x, eps=0.1))


# -- decorrelated batch normalization. Whitening a handful of samples
# amplifies the rounding of the input by the covariance's condition number.

def _grouped(x, groups):
    perm = (1, 0) + tuple(range(2, x.ndim))
    return x.transpose(perm).reshape(groups, x.shape[1] // groups, -1)


def _ungrouped(y, shape):
    perm = (1, 0) + tuple(range(2, len(shape)))
    return y.reshape((shape[1], shape[0]) + shape[2:]).transpose(perm)


def _dbn_ref(x, groups, eps=2e-5):
    xg = _grouped(x, groups)
    xc = xg - xg.mean(axis=2, keepdims=True)
    out = []
    for a in xc:
        cov = a.dot(a.T) / a.shape[1] + eps * numpy.eye(a.shape[0])
        w, v = numpy.linalg.eigh(cov)
        out.append((v / numpy.sqrt(w)).dot(v.T).dot(a))
    return _ungrouped(numpy.stack(out), x.shape)


_DBN_TOL = dict(fwd={f16: dict(atol=1e-2, rtol=1e-2),
                     f32: dict(atol=1e-5, rtol=1e-4)},
                bwd={f16: dict(atol=2e-2, rtol=2e-2)})
for _id, _x, _groups in (('', (6, 4, 2), 2), ('-2d', (10, 3), 1),
                         ('-4d', (4, 2, 2, 2), 2)):
    case('decorrelated_batch_normalization' + _id, (Floats(_x),),
         lambda x, gr=_groups: F.decorrelated_batch_normalization(
             x, groups=gr),
         lambda x, gr=_groups: _dbn_ref(x, gr), double=False, **_DBN_TOL)


def _fixed_dbn_ref(x, mean, projection, groups):
    xc = _grouped(x, groups) - mean[:, :, None]
    return _ungrouped(numpy.matmul(projection, xc), x.shape)


for _id, _x, _groups in (('', (3, 4, 2), 2), ('-2d', (5, 3), 1)):
    _c = _x[1] // _groups
    case('fixed_decorrelated_batch_normalization' + _id,
         (Floats(_x), Floats((_groups, _c)), Floats((_groups, _c, _c))),
         lambda x, m, p, gr=_groups: F.fixed_decorrelated_batch_normalization(
             x, m, p, groups=gr),
         lambda x, m, p, gr=_groups: _fixed_dbn_ref(x, m, p, gr))


case('fixed_batch_renormalization',
     (Floats((2, 3, 2, 2)), _gamma((3,)), Floats((3,)),
      Floats((3,), -0.5, 0.5), Floats((3,), 0.5, 1.5)),
     F.fixed_batch_renormalization,
     lambda x, g, b, m, v: _fixed_bn_ref(x, g, b, m, v, None))
