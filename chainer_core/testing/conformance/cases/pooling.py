"""Cases of poolings."""
import itertools
import math

import numpy

import chainer_core.functions as F

from . import Fixed, Floats, Ints, case


class Distinct:
    """A shuffle of evenly spaced values in ``[low, high]``: every pair of
    values differs by at least ``(high - low) / (size - 1)``, so that a
    maximum does not change hands within the numerical step."""

    def __init__(self, shape, low=-1.0, high=1.0):
        self.shape, self.low, self.high = shape, low, high

    def make(self, rng, dtype):
        size = int(numpy.prod(self.shape))
        values = numpy.linspace(self.low, self.high, size)
        rng.shuffle(values)
        return values.reshape(self.shape).astype(dtype)


def _tup(value, n):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


def _windows(in_dims, ksize, stride, pad, cover_all):
    """For every output position, the input positions of its window that
    lie inside the input, with their tap numbers."""
    n = len(in_dims)
    out = []
    for i in range(n):
        span = in_dims[i] + 2 * pad[i] - ksize[i]
        out.append((span + (stride[i] - 1 if cover_all else 0)) //
                   stride[i] + 1)
    for pos in itertools.product(*[range(o) for o in out]):
        taps = []
        for t, tap in enumerate(itertools.product(*[range(k)
                                                    for k in ksize])):
            where = tuple(pos[i] * stride[i] - pad[i] + tap[i]
                          for i in range(n))
            if all(0 <= where[i] < in_dims[i] for i in range(n)):
                taps.append((t, where))
        yield pos, taps
    return out


def _out_dims(in_dims, ksize, stride, pad, cover_all):
    return tuple(
        (d + 2 * p - k + (s - 1 if cover_all else 0)) // s + 1
        for d, k, s, p in zip(in_dims, ksize, stride, pad))


def _window_args(x, ksize, stride, pad):
    n = x.ndim - 2
    ksize = _tup(ksize, n)
    stride = ksize if stride is None else _tup(stride, n)
    return ksize, stride, _tup(pad, n)


# -- max and average pooling

def _max_pool_ref(x, ksize, stride=None, pad=0, cover_all=True):
    ksize, stride, pad = _window_args(x, ksize, stride, pad)
    y = numpy.full(x.shape[:2] + _out_dims(x.shape[2:], ksize, stride, pad,
                                           cover_all), -numpy.inf)
    for pos, taps in _windows(x.shape[2:], ksize, stride, pad, cover_all):
        for _, where in taps:
            y[(Ellipsis,) + pos] = numpy.maximum(y[(Ellipsis,) + pos],
                                                 x[(Ellipsis,) + where])
    return y


def _avg_pool_ref(x, ksize, stride=None, pad=0, pad_value=0):
    ksize, stride, pad = _window_args(x, ksize, stride, pad)
    y = numpy.zeros(x.shape[:2] + _out_dims(x.shape[2:], ksize, stride, pad,
                                            False))
    for pos, taps in _windows(x.shape[2:], ksize, stride, pad, False):
        total = sum(x[(Ellipsis,) + where] for _, where in taps)
        count = numpy.prod(ksize) if pad_value == 0 else len(taps)
        y[(Ellipsis,) + pos] = total / count
    return y


_X = (2, 3, 5, 5)
for _id, _kw in (('', dict(ksize=3)),
                 ('-stride-pad', dict(ksize=3, stride=2, pad=1)),
                 ('-rect', dict(ksize=(2, 3), stride=(1, 2))),
                 ('-no-cover_all', dict(ksize=2, cover_all=False)),
                 ('-overlap', dict(ksize=3, stride=1, pad=1))):
    case('max_pooling_2d' + _id, (Distinct(_X),),
         lambda x, kw=_kw: F.max_pooling_2d(x, **kw),
         lambda x, kw=_kw: _max_pool_ref(x, **kw))
case('max_pooling_nd-1d', (Distinct((2, 3, 7)),),
     lambda x: F.max_pooling_nd(x, 3, 2, 1),
     lambda x: _max_pool_ref(x, 3, 2, 1))
case('max_pooling_nd-3d', (Distinct((2, 2, 4, 3, 5)),),
     lambda x: F.max_pooling_nd(x, (2, 2, 3), (2, 1, 2), (0, 1, 1)),
     lambda x: _max_pool_ref(x, (2, 2, 3), (2, 1, 2), (0, 1, 1)))

for _id, _kw in (('', dict(ksize=3)),
                 ('-stride-pad', dict(ksize=3, stride=2, pad=1)),
                 ('-rect', dict(ksize=(2, 3), stride=(1, 2), pad=(1, 0)))):
    case('average_pooling_2d' + _id, (Floats(_X),),
         lambda x, kw=_kw: F.average_pooling_2d(x, **kw),
         lambda x, kw=_kw: _avg_pool_ref(x, **kw))
for _id, _pv in (('-pad_value0', 0), ('-pad_value-None', None)):
    case('average_pooling_nd' + _id, (Floats(_X),),
         lambda x, pv=_pv: F.average_pooling_nd(x, 3, 2, 1, pad_value=pv),
         lambda x, pv=_pv: _avg_pool_ref(x, 3, 2, 1, pv))
case('average_pooling_nd-3d', (Floats((2, 2, 4, 3, 5)),),
     lambda x: F.average_pooling_nd(x, (2, 2, 3), 1, (1, 0, 1),
                                    pad_value=None),
     lambda x: _avg_pool_ref(x, (2, 2, 3), 1, (1, 0, 1), None))


# -- unpooling and upsampling

def _unpool_ref(x, ksize, stride=None, pad=0, outsize=None, cover_all=True):
    ksize, stride, pad = _window_args(x, ksize, stride, pad)
    if outsize is None:
        outsize = tuple(
            s * (d - 1) + k - 2 * p - (s - 1 if cover_all else 0)
            for d, k, s, p in zip(x.shape[2:], ksize, stride, pad))
    y = numpy.zeros(x.shape[:2] + tuple(outsize))
    for pos, taps in _windows(outsize, ksize, stride, pad, cover_all):
        for _, where in taps:
            y[(Ellipsis,) + where] += x[(Ellipsis,) + pos]
    return y


for _id, _kw in (('', dict(ksize=2)),
                 ('-no-cover_all', dict(ksize=2, cover_all=False)),
                 ('-overlap', dict(ksize=3, stride=2, pad=1)),
                 ('-outsize', dict(ksize=3, stride=2, pad=1,
                                   outsize=(5, 4)))):
    case('unpooling_2d' + _id, (Floats((2, 3, 3, 3)),),
         lambda x, kw=_kw: F.unpooling_2d(x, **kw),
         lambda x, kw=_kw: _unpool_ref(x, **kw))
case('unpooling_nd-3d', (Floats((2, 2, 2, 3, 2)),),
     lambda x: F.unpooling_nd(x, (2, 3, 2), (2, 2, 1), (0, 1, 0)),
     lambda x: _unpool_ref(x, (2, 3, 2), (2, 2, 1), (0, 1, 0)))


def _upsample_ref(x, indexes, ksize, stride=None, pad=0, outsize=None,
                  cover_all=True):
    ksize, stride, pad = _window_args(x, ksize, stride, pad)
    if outsize is None:
        outsize = tuple(
            s * (d - 1) + k - 2 * p - (s - 1 if cover_all else 0)
            for d, k, s, p in zip(x.shape[2:], ksize, stride, pad))
    y = numpy.zeros(x.shape[:2] + tuple(outsize))
    for pos, taps in _windows(outsize, ksize, stride, pad, cover_all):
        for t, where in taps:
            hit = indexes[(Ellipsis,) + pos] == t
            y[(Ellipsis,) + where] += numpy.where(
                hit, x[(Ellipsis,) + pos], 0.0)
    return y


for _id, _kw in (('', dict(ksize=2)),
                 ('-stride-pad', dict(ksize=3, stride=2, pad=1)),
                 ('-outsize', dict(ksize=2, outsize=(6, 6),
                                   cover_all=False))):
    case('upsampling_2d' + _id, (Floats((2, 3, 3, 3)),),
         lambda x, indexes, kw=_kw: F.upsampling_2d(x, indexes, **kw),
         lambda x, indexes, kw=_kw: _upsample_ref(x, indexes, **kw),
         consts={'indexes': Ints((2, 3, 3, 3), 0,
                                 numpy.prod(_tup(_kw['ksize'], 2)))})


def _spp_ref(x, pyramid_height):
    h, w = x.shape[2:]
    parts = []
    for level in range(pyramid_height):
        bins = 2 ** level
        kh, kw = math.ceil(h / bins), math.ceil(w / bins)
        y = _max_pool_ref(x, (kh, kw), None,
                          ((kh * bins - h) // 2, (kw * bins - w) // 2))
        parts.append(y.reshape(len(x), -1))
    return numpy.concatenate(parts, axis=1)[:, :, None, None]


case('spatial_pyramid_pooling_2d', (Distinct((2, 3, 7, 6)),),
     lambda x: F.spatial_pyramid_pooling_2d(x, 3, pooling='max'),
     lambda x: _spp_ref(x, 3))


# -- regions of interest

def _round(v):
    return int(math.copysign(math.floor(abs(v) + 0.5), v))


def _roi_pool_ref(x, rois, outh, outw, spatial_scale):
    h, w = x.shape[2:]
    y = numpy.zeros((len(rois), x.shape[1], outh, outw))
    for r, roi in enumerate(rois):
        x0, y0, x1, y1 = [_round(v * spatial_scale) for v in roi[1:]]
        step_h = max(y1 - y0 + 1, 1) / outh
        step_w = max(x1 - x0 + 1, 1) / outw
        for i, j in itertools.product(range(outh), range(outw)):
            hs = min(max(math.floor(i * step_h) + y0, 0), h)
            he = min(max(math.ceil((i + 1) * step_h) + y0, 0), h)
            ws = min(max(math.floor(j * step_w) + x0, 0), w)
            we = min(max(math.ceil((j + 1) * step_w) + x0, 0), w)
            if he > hs and we > ws:
                patch = x[int(roi[0]), :, hs:he, ws:we]
                y[r, :, i, j] = patch.reshape(len(patch), -1).max(axis=1)
    return y


# Regions inside, across the border, and one bin falling off the image.
_ROIS5 = Fixed([[0, 1, 1, 4, 3], [1, 0, 2, 3, 5], [1, 2.4, 0.6, 6, 7],
                [0, 3, 3, 3, 3]], dtype=numpy.float32)
case('roi_pooling_2d', (Distinct((2, 3, 6, 5)),),
     lambda x, rois: F.roi_pooling_2d(x, rois, 3, 2, 1.0),
     lambda x, rois: _roi_pool_ref(x, rois, 3, 2, 1.0),
     consts={'rois': _ROIS5})
case('roi_pooling_2d-scale', (Distinct((2, 3, 6, 5)),),
     lambda x, rois: F.roi_pooling_2d(x, rois, 2, 3, 0.6),
     lambda x, rois: _roi_pool_ref(x, rois, 2, 3, 0.6),
     consts={'rois': _ROIS5})


def _point(p, limit):
    """The pixels and weights of a sample coordinate, or None if it is
    beyond one pixel outside."""
    if p < -1 or p > limit:
        return None
    p = min(max(p, 0.0), limit - 1.0)
    low = int(math.floor(p))
    frac = p - low
    if low >= limit - 1:
        return [(limit - 1, 1.0)]
    return [(low, 1 - frac), (low + 1, frac)]


def _align_ref(x, rois, roi_indices, outsize, spatial_scale,
               sampling_ratio, mode):
    outh, outw = _tup(outsize, 2)
    ratio = _tup(sampling_ratio, 2)
    h, w = x.shape[2:]
    y = numpy.zeros((len(rois), x.shape[1], outh, outw))
    for r, roi in enumerate(rois):
        sy, sx, ey, ex = [v * spatial_scale for v in roi]
        rh, rw = max(ey - sy, 1.0), max(ex - sx, 1.0)
        gh = ratio[0] or math.ceil(rh / outh)
        gw = ratio[1] or math.ceil(rw / outw)
        img = x[roi_indices[r]]
        for i, j in itertools.product(range(outh), range(outw)):
            values = []
            for iy, ix in itertools.product(range(gh), range(gw)):
                py = _point(sy + (i + (iy + 0.5) / gh) * rh / outh, h)
                px = _point(sx + (j + (ix + 0.5) / gw) * rw / outw, w)
                if py is None or px is None:
                    values.append(None)
                    continue
                values.append(sum(wy * wx * img[:, yy, xx]
                                  for yy, wy in py for xx, wx in px))
            found = [v for v in values if v is not None]
            if mode == 'average':
                y[r, :, i, j] = sum(found) / (gh * gw) if found else 0
            else:
                y[r, :, i, j] = numpy.max(found, axis=0)
    return y


# Regions with fractional corners, one reaching past the image.
_ROIS4 = Fixed([[0.4, 0.2, 3.6, 4.1], [1.3, 1.1, 5.7, 6.2],
                [-0.6, -0.3, 2.2, 1.7]], dtype=numpy.float32)
_ROI_IDX = Fixed([1, 0, 1])
for _id, _kw in (('', dict(outsize=2, spatial_scale=1.0)),
                 ('-ratio', dict(outsize=(3, 2), spatial_scale=0.8,
                                 sampling_ratio=2)),
                 ('-ratio-pair', dict(outsize=(2, 3), spatial_scale=1.0,
                                      sampling_ratio=(1, None)))):
    _args = (_kw['outsize'], _kw['spatial_scale'],
             _kw.get('sampling_ratio'))
    case('roi_average_align_2d' + _id, (Floats((2, 3, 6, 5)),),
         lambda x, rois, idx, a=_args: F.roi_average_align_2d(
             x, rois, idx, *a),
         lambda x, rois, idx, a=_args: _align_ref(x, rois, idx, *a,
                                                  'average'),
         consts={'rois': _ROIS4, 'idx': _ROI_IDX})
    case('roi_max_align_2d' + _id, (Distinct((2, 3, 6, 5)),),
         lambda x, rois, idx, a=_args: F.roi_max_align_2d(
             x, rois, idx, *a),
         lambda x, rois, idx, a=_args: _align_ref(x, rois, idx, *a, 'max'),
         consts={'rois': _ROIS4, 'idx': _ROI_IDX})


# The fixed-dimension forms of the N-dimensional poolings.
for _n, _shape in ((1, (2, 3, 7)), (3, (2, 2, 4, 3, 5))):
    case('max_pooling_{}d'.format(_n), (Distinct(_shape),),
         lambda x, n=_n: getattr(F, 'max_pooling_{}d'.format(n))(x, 2, 1, 1),
         lambda x: _max_pool_ref(x, 2, 1, 1))
    case('average_pooling_{}d'.format(_n), (Floats(_shape),),
         lambda x, n=_n: getattr(F, 'average_pooling_{}d'.format(n))(
             x, 2, 1, 1, pad_value=None),
         lambda x: _avg_pool_ref(x, 2, 1, 1, pad_value=None))
    case('unpooling_{}d'.format(_n), (Floats(_shape[:2] + (2,) * _n),),
         lambda x, n=_n: getattr(F, 'unpooling_{}d'.format(n))(x, 2),
         lambda x: _unpool_ref(x, 2))


def _roi_bins_ref(rois, outsize, spatial_scale, dims):
    """Per region and bin, the pixel rectangle of roi_max_pooling_2d and
    roi_average_pooling_2d: boxes (y0, x0, y1, x1) rounded half to even,
    max(end - start, 1) pixels, floor/ceil bin edges, clipped."""
    out = []
    for roi in rois:
        y0, x0, y1, x1 = [round(float(v) * spatial_scale) for v in roi]
        step_h = max(y1 - y0, 1) / outsize[0]
        step_w = max(x1 - x0, 1) / outsize[1]
        bins = {}
        for i, j in itertools.product(range(outsize[0]), range(outsize[1])):
            hs = min(max(math.floor(i * step_h) + y0, 0), dims[0])
            he = min(max(math.ceil((i + 1) * step_h) + y0, 0), dims[0])
            ws = min(max(math.floor(j * step_w) + x0, 0), dims[1])
            we = min(max(math.ceil((j + 1) * step_w) + x0, 0), dims[1])
            bins[i, j] = (hs, he, ws, we)
        out.append(bins)
    return out


def _roi_box_pool_ref(x, rois, roi_indices, outsize, spatial_scale, reduce):
    y = numpy.zeros((len(rois), x.shape[1]) + outsize)
    for r, bins in enumerate(_roi_bins_ref(rois, outsize, spatial_scale,
                                           x.shape[2:])):
        for (i, j), (hs, he, ws, we) in bins.items():
            patch = x[roi_indices[r], :, hs:he, ws:we]
            if patch.size:
                y[r, :, i, j] = reduce(patch.reshape(len(patch), -1), axis=1)
    return y


# Regions inside and across the border (no bin entirely outside: an
# empty max bin is -inf), one with a half-pixel tie in its rounding.
_ROIS4 = Fixed([[1, 1, 3, 4], [2, 0, 5, 3], [0.5, 2.4, 7, 6],
                [3, 3, 4, 4]], dtype=numpy.float32)
_ROI_INDICES = Fixed([0, 1, 1, 0])
for _name, _reduce, _gen in (
        ('roi_max_pooling_2d', numpy.max, Distinct),
        ('roi_average_pooling_2d', numpy.mean, Floats)):
    for _id, _outsize, _scale in (('', (3, 2), 1.0), ('-scale', (2, 3), 0.6)):
        case(_name + _id, (_gen((2, 3, 6, 5)),),
             lambda x, rois, idx, f=getattr(F, _name), o=_outsize,
             s=_scale: f(x, rois.astype(x.dtype), idx, o, s),
             lambda x, rois, idx, o=_outsize, s=_scale, red=_reduce:
             _roi_box_pool_ref(x, rois, idx, o, s, red),
             consts={'rois': _ROIS4, 'idx': _ROI_INDICES})
