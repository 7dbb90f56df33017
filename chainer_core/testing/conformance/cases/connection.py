"""Cases of connections."""
import itertools

import numpy

import chainer_core.functions as F

from . import Fixed, Floats, Ints, Signed, case, f16

# -- connection


def _linear_ref(x, W, b=None, n_batch_axes=1):
    rows = x.reshape(x.shape[:n_batch_axes] + (-1,))
    y = numpy.einsum('...i,oi->...o', rows, W)
    return y if b is None else y + b


case('linear', (Floats((4, 3)), Floats((2, 3)), Floats((2,))),
     F.linear, _linear_ref, fwd={f16: dict(atol=3e-3)})
case('linear-nobias', (Floats((4, 3)), Floats((2, 3))),
     F.linear, _linear_ref, fwd={f16: dict(atol=3e-3)})
case('linear-flatten', (Floats((4, 2, 3)), Floats((2, 6)), Floats((2,))),
     F.linear, _linear_ref, fwd={f16: dict(atol=5e-3)})
case('linear-n_batch_axes2',
     (Floats((2, 3, 4)), Floats((5, 4)), Floats((5,))),
     lambda x, W, b: F.linear(x, W, b, n_batch_axes=2),
     lambda x, W, b: _linear_ref(x, W, b, 2), fwd={f16: dict(atol=3e-3)})
case('linear-n_batch_axes2-nobias', (Floats((2, 3, 2, 2)), Floats((3, 4))),
     lambda x, W: F.linear(x, W, n_batch_axes=2),
     lambda x, W: _linear_ref(x, W, None, 2), fwd={f16: dict(atol=3e-3)})


# -- convolutions
#
# The references loop over the kernel taps: for each tap, the strided view
# of the zero-padded input it sees, contracted with the tap's weights.


def _tup(value, n):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


def _conv_ref(x, W, b=None, stride=1, pad=0, cover_all=False, dilate=1,
              groups=1):
    nd = x.ndim - 2
    s, p, d = _tup(stride, nd), _tup(pad, nd), _tup(dilate, nd)
    k = W.shape[2:]
    out = []
    for i in range(nd):
        span = x.shape[2 + i] + 2 * p[i] - (k[i] - 1) * d[i] - 1
        out.append((span + (s[i] - 1 if cover_all else 0)) // s[i] + 1)
    padded = numpy.pad(x, [(0, 0), (0, 0)] +
                       [(p[i], p[i] + s[i]) for i in range(nd)])
    cg, og = x.shape[1] // groups, W.shape[0] // groups
    y = numpy.zeros((x.shape[0], W.shape[0]) + tuple(out))
    for taps in itertools.product(*[range(kk) for kk in k]):
        view = padded[(Ellipsis,) + tuple(
            slice(t * d[i], t * d[i] + s[i] * (out[i] - 1) + 1, s[i])
            for i, t in enumerate(taps))]
        for g in range(groups):
            w = W[(slice(g * og, (g + 1) * og), slice(None)) + taps]
            y[:, g * og:(g + 1) * og] += numpy.einsum(
                'nc...,oc->no...', view[:, g * cg:(g + 1) * cg], w)
    if b is not None:
        y += b.reshape((1, -1) + (1,) * nd)
    return y


def _deconv_ref(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1,
                groups=1):
    nd = x.ndim - 2
    s, p, d = _tup(stride, nd), _tup(pad, nd), _tup(dilate, nd)
    k = W.shape[2:]
    ins = x.shape[2:]
    if outsize is None:
        outsize = [s[i] * (ins[i] - 1) + (k[i] - 1) * d[i] + 1 - 2 * p[i]
                   for i in range(nd)]
    full = [max(s[i] * (ins[i] - 1) + (k[i] - 1) * d[i] + 1,
                outsize[i] + 2 * p[i]) for i in range(nd)]
    cg, og = x.shape[1] // groups, W.shape[1]
    y = numpy.zeros((x.shape[0], og * groups) + tuple(full))
    for taps in itertools.product(*[range(kk) for kk in k]):
        where = (Ellipsis,) + tuple(
            slice(t * d[i], t * d[i] + s[i] * (ins[i] - 1) + 1, s[i])
            for i, t in enumerate(taps))
        for g in range(groups):
            w = W[(slice(g * cg, (g + 1) * cg), slice(None)) + taps]
            y[:, g * og:(g + 1) * og][where] += numpy.einsum(
                'nc...,co->no...', x[:, g * cg:(g + 1) * cg], w)
    y = y[(Ellipsis,) + tuple(slice(p[i], p[i] + outsize[i])
                              for i in range(nd))]
    if b is not None:
        y = y + b.reshape((1, -1) + (1,) * nd)
    return y


_X, _W3 = (2, 3, 5, 5), (2, 3, 3, 3)
for _id, _kw, _x, _w in (
        ('', {}, _X, _W3),
        ('-stride-pad', dict(stride=2, pad=1), _X, _W3),
        ('-rect', dict(stride=(1, 2), pad=(2, 0)), _X, (4, 3, 3, 2)),
        ('-cover_all', dict(stride=3, pad=1, cover_all=True), _X, _W3),
        ('-dilate', dict(dilate=2, pad=1), _X, _W3),
        ('-groups', dict(groups=3, pad=1), (2, 3, 4, 4), (6, 1, 3, 3)),
        ('-groups2-dilate', dict(groups=2, dilate=(1, 2), stride=2),
         (2, 4, 5, 6), (4, 2, 2, 3))):
    case('convolution_2d' + _id,
         (Floats(_x), Floats(_w), Floats(_w[:1])),
         lambda x, W, b, kw=_kw: F.convolution_2d(x, W, b, **kw),
         lambda x, W, b, kw=_kw: _conv_ref(x, W, b, **kw))
case('convolution_2d-nobias', (Floats(_X), Floats(_W3)),
     lambda x, W: F.convolution_2d(x, W, stride=2),
     lambda x, W: _conv_ref(x, W, stride=2))
case('dilated_convolution_2d', (Floats(_X), Floats(_W3), Floats((2,))),
     lambda x, W, b: F.dilated_convolution_2d(x, W, b, pad=2, dilate=2),
     lambda x, W, b: _conv_ref(x, W, b, pad=2, dilate=2))
case('convolution_nd-1d', (Floats((2, 3, 7)), Floats((4, 3, 3)),
                           Floats((4,))),
     lambda x, W, b: F.convolution_nd(x, W, b, stride=2, pad=1),
     lambda x, W, b: _conv_ref(x, W, b, stride=2, pad=1))
case('convolution_nd-3d', (Floats((2, 2, 3, 4, 3)), Floats((4, 1, 2, 2, 2)),
                           Floats((4,))),
     lambda x, W, b: F.convolution_nd(x, W, b, stride=(1, 2, 1), pad=1,
                                      groups=2, cover_all=True),
     lambda x, W, b: _conv_ref(x, W, b, stride=(1, 2, 1), pad=1, groups=2,
                               cover_all=True))

for _id, _kw, _x, _w in (
        ('', {}, (2, 3, 3, 3), (3, 2, 3, 3)),
        ('-stride-pad', dict(stride=2, pad=1), (2, 3, 3, 3), (3, 2, 3, 3)),
        ('-outsize', dict(stride=2, pad=1, outsize=(6, 5)), (2, 3, 3, 3),
         (3, 2, 3, 3)),
        ('-dilate', dict(dilate=(2, 1), stride=(1, 2)), (2, 3, 3, 3),
         (3, 2, 2, 3)),
        ('-groups', dict(groups=3, stride=2), (2, 3, 3, 3), (3, 2, 3, 3))):
    _groups = _kw.get('groups', 1)
    case('deconvolution_2d' + _id,
         (Floats(_x), Floats(_w), Floats((_w[1] * _groups,))),
         lambda x, W, b, kw=_kw: F.deconvolution_2d(x, W, b, **kw),
         lambda x, W, b, kw=_kw: _deconv_ref(x, W, b, **kw))
case('deconvolution_2d-nobias', (Floats((2, 3, 3, 3)), Floats((3, 2, 2, 2))),
     lambda x, W: F.deconvolution_2d(x, W, stride=2),
     lambda x, W: _deconv_ref(x, W, stride=2))
case('deconvolution_nd-3d', (Floats((2, 2, 2, 3, 2)), Floats((2, 2, 2, 2, 2)),
                             Floats((4,))),
     lambda x, W, b: F.deconvolution_nd(x, W, b, stride=(2, 1, 2), pad=1,
                                        groups=2),
     lambda x, W, b: _deconv_ref(x, W, b, stride=(2, 1, 2), pad=1, groups=2))


def _depthwise_ref(x, W, b=None, stride=1, pad=0):
    m, c = W.shape[:2]
    ys = [_conv_ref(x[:, ci:ci + 1], W[mi:mi + 1, ci:ci + 1], None, stride,
                    pad)[:, 0] for ci in range(c) for mi in range(m)]
    y = numpy.stack(ys, axis=1)
    return y if b is None else y + b.reshape(1, -1, 1, 1)


case('depthwise_convolution_2d',
     (Floats(_X), Floats((2, 3, 3, 3)), Floats((6,))),
     lambda x, W, b: F.depthwise_convolution_2d(x, W, b, stride=2, pad=1),
     lambda x, W, b: _depthwise_ref(x, W, b, stride=2, pad=1))
case('depthwise_convolution_2d-nobias', (Floats(_X), Floats((1, 3, 2, 3))),
     F.depthwise_convolution_2d, _depthwise_ref)


def _local_ref(x, W, b=None, stride=1):
    sy, sx = _tup(stride, 2)
    o, oh, ow, c, kh, kw = W.shape
    y = numpy.zeros((x.shape[0], o, oh, ow))
    for i in range(oh):
        for j in range(ow):
            patch = x[:, :, i * sy:i * sy + kh, j * sx:j * sx + kw]
            y[:, :, i, j] = numpy.einsum('nckl,ockl->no', patch, W[:, i, j])
    return y if b is None else y + b


case('local_convolution_2d',
     (Floats(_X), Floats((2, 3, 3, 3, 3, 3)), Floats((2, 3, 3))),
     F.local_convolution_2d, _local_ref)
case('local_convolution_2d-stride',
     (Floats(_X), Floats((2, 2, 1, 3, 2, 3))),
     lambda x, W: F.local_convolution_2d(x, W, stride=(3, 2)),
     lambda x, W: _local_ref(x, W, stride=(3, 2)))


def _bilinear_read(img, py, px):
    """img (C, H, W) at the point (py, px), zero outside."""
    h, w = img.shape[1:]
    y0, x0 = int(numpy.floor(py)), int(numpy.floor(px))
    value = numpy.zeros(img.shape[0])
    for yy, wy in ((y0, 1 - (py - y0)), (y0 + 1, py - y0)):
        for xx, wx in ((x0, 1 - (px - x0)), (x0 + 1, px - x0)):
            if 0 <= yy < h and 0 <= xx < w:
                value += wy * wx * img[:, yy, xx]
    return value


def _deformable_ref(x, offset, W, b=None, stride=1, pad=0):
    sy, sx = _tup(stride, 2)
    ph, pw = _tup(pad, 2)
    o, c, kh, kw = W.shape
    n, _, oh, ow = offset.shape
    y = numpy.zeros((n, o, oh, ow))
    for ni, i, j, u, v in itertools.product(range(n), range(oh), range(ow),
                                            range(kh), range(kw)):
        t = u * kw + v
        value = _bilinear_read(
            x[ni], i * sy - ph + u + offset[ni, kh * kw + t, i, j],
            j * sx - pw + v + offset[ni, t, i, j])
        y[ni, :, i, j] += W[:, :, u, v] @ value
    return y if b is None else y + b.reshape(1, -1, 1, 1)


# Offsets keep every sampling point off the pixel grid (a kink of the
# bilinear reading); some points fall off the image.
case('deformable_convolution_2d_sampler',
     (Floats((2, 2, 4, 4)), Signed((2, 18, 2, 2), 0.1, 0.9),
      Floats((3, 2, 3, 3)), Floats((3,))),
     lambda x, o, W, b: F.deformable_convolution_2d_sampler(
         x, o, W, b, stride=2, pad=1),
     lambda x, o, W, b: _deformable_ref(x, o, W, b, stride=2, pad=1),
     double=False)
case('deformable_convolution_2d_sampler-nobias',
     (Floats((2, 2, 4, 3)), Signed((2, 8, 3, 2), 0.1, 0.9),
      Floats((3, 2, 2, 2))),
     F.deformable_convolution_2d_sampler, _deformable_ref,
     double=False)


# -- embeddings and bilinear forms

def _embed_ref(x, W, ignore_label=None):
    rows = W[numpy.where(x == ignore_label, 0, x)]
    if ignore_label is not None:
        rows = numpy.where((x == ignore_label)[..., None], 0.0, rows)
    return rows


case('embed_id', (Ints((2, 3), 0, 4), Floats((4, 3))), F.embed_id,
     _embed_ref)
case('embed_id-ignore_label', (Fixed([[0, -1, 3], [3, 3, -1]]),
                               Floats((4, 2))),
     lambda x, W: F.embed_id(x, W, ignore_label=-1),
     lambda x, W: _embed_ref(x, W, -1))


def _bilinear_ref(e1, e2, W, V1=None, V2=None, b=None):
    e1 = e1.reshape(len(e1), -1)
    e2 = e2.reshape(len(e2), -1)
    y = numpy.einsum('ij,ik,jkl->il', e1, e2, W)
    if V1 is not None:
        y = y + e1 @ V1 + e2 @ V2 + b
    return y


case('bilinear', (Floats((3, 2)), Floats((3, 4)), Floats((2, 4, 3))),
     F.bilinear, _bilinear_ref)
case('bilinear-linear-terms',
     (Floats((3, 2)), Floats((3, 4)), Floats((2, 4, 3)), Floats((2, 3)),
      Floats((4, 3)), Floats((3,))),
     F.bilinear, _bilinear_ref)
case('bilinear-flatten', (Floats((3, 2, 2)), Floats((3, 3)),
                          Floats((4, 3, 2))),
     F.bilinear, _bilinear_ref)


def _shift_ref(x, ksize, dilate):
    """Channel group g moved by the g-th window offset (row-major, the
    centre swapped with the last), pixel by pixel."""
    kh, kw = ksize
    offsets = [(i - kh // 2, j - kw // 2) for i in range(kh)
               for j in range(kw)]
    centre = len(offsets) // 2
    offsets[centre], offsets[-1] = offsets[-1], offsets[centre]
    n, c, h, w = x.shape
    size = c // len(offsets)
    y = numpy.zeros_like(x)
    for ch in range(c):
        dy, dx = offsets[min(ch // size, len(offsets) - 1)]
        for i, j in itertools.product(range(h), range(w)):
            si, sj = i - dy * dilate, j - dx * dilate
            if 0 <= si < h and 0 <= sj < w:
                y[:, ch, i, j] = x[:, ch, si, sj]
    return y


for _id, _c, _k, _d in (('', 9, 3, 1), ('-rest-dilate', 11, 3, 2),
                        ('-1x3', 7, (1, 3), 1)):
    case('shift' + _id, (Floats((2, _c, 4, 5)),),
         lambda x, k=_k, d=_d: F.shift(x, k, d),
         lambda x, k=_k, d=_d: _shift_ref(
             x, k if isinstance(k, tuple) else (k, k), d))
