"""Cases of array manipulation."""
import numpy

import chainer_core.functions as F

from . import Fixed, Floats, Ints, Mask, case, f16

# -- array manipulation

for _id, _src, _dst in (('flat', (2, 3, 4), (24,)),
                        ('merge', (2, 3, 4), (6, 4)),
                        ('infer', (2, 3, 4), (4, -1, 2)),
                        ('infer-1d', (2, 3, 4), (-1,)),
                        ('add-axes', (3, 4), (2, 1, 6)),
                        ('to-0dim', (1,), ())):
    case('reshape-' + _id, (Floats(_src),),
         lambda x, s=_dst: F.reshape(x, s),
         lambda x, s=_dst: numpy.reshape(x, s))

for _id, _shape, _axes in (('reverse', (2, 3, 4), None),
                           ('perm', (2, 3, 4), (1, 0, 2)),
                           ('perm-neg', (2, 3, 4), (-1, 0, 1)),
                           ('2d', (3, 4), None),
                           ('identity', (3, 4), (0, 1))):
    case('transpose-' + _id, (Floats(_shape),),
         lambda x, a=_axes: F.transpose(x, a),
         lambda x, a=_axes: numpy.transpose(x, a))

for _id, _src, _dst in (('new-lead', (4,), (3, 4)),
                        ('inner-and-lead', (3, 1), (2, 3, 4)),
                        ('from-0dim', (), (2, 3)),
                        ('all-ones', (1, 1), (3, 4))):
    case('broadcast_to-' + _id, (Floats(_src),),
         lambda x, s=_dst: F.broadcast_to(x, s),
         lambda x, s=_dst: x * numpy.ones(s))

# get_item: the reference is NumPy's indexing of the float64 input; advanced
# indices repeat positions so that the gradient must accumulate them.
_all = slice(None)
for _id, _shape, _index in (
        ('int', (3, 4), 1),
        ('int-neg-to-0dim', (3, 4), (-1, 2)),
        ('slice', (3, 4), slice(1, 3)),
        ('slice-step', (3, 4), (_all, slice(None, None, 2))),
        ('slice-neg-step', (3, 4), slice(None, None, -1)),
        ('slice-neg-step-bounds', (3, 4), (_all, slice(3, 0, -2))),
        ('newaxis', (3, 4), (None, slice(1, None))),
        ('newaxis-inner', (3, 4), (_all, None)),
        ('ellipsis', (2, 3, 4), (Ellipsis, 1)),
        ('ellipsis-mid', (2, 3, 4), (0, Ellipsis, None, 2)),
        ('int-list-repeated', (3, 4), [0, 2, 2, 0]),
        ('int-lists-pair', (3, 4), ([0, 2, 2], [1, 3, 1])),
        ('int-list-and-slice', (2, 3, 4), (_all, [2, 0, 2], slice(1, 3)))):
    case('get_item-' + _id, (Floats(_shape),),
         lambda x, i=_index: F.get_item(x, i),
         lambda x, i=_index: numpy.asarray(x[i]))
case('get_item-int-array', (Floats((3, 4)),),
     lambda x, idx: F.get_item(x, (_all, idx)),
     lambda x, idx: x[:, idx],
     consts={'idx': numpy.array([[3, 0], [3, 3]], dtype=numpy.int32)})
case('get_item-bool-mask', (Floats((3, 4)),),
     lambda x, mask: F.get_item(x, mask), lambda x, mask: x[mask],
     consts={'mask': Mask((3, 4))})
case('get_item-bool-mask-axis0', (Floats((4, 3)),),
     lambda x, mask: F.get_item(x, mask), lambda x, mask: x[mask],
     consts={'mask': Mask((4,))})


# -- axes: swapaxes, rollaxis, moveaxis, expand_dims, squeeze, flatten

for _id, _a, _b in (('01', 0, 1), ('neg', -1, 0), ('same', 1, 1)):
    case('swapaxes-' + _id, (Floats((2, 3, 4)),),
         lambda x, a=_a, b=_b: F.swapaxes(x, a, b),
         lambda x, a=_a, b=_b: numpy.swapaxes(x, a, b))

for _id, _axis, _start in (('last-to-front', 2, 0), ('front-to-end', 0, 3),
                           ('neg', -1, 1), ('noop', 1, 2)):
    case('rollaxis-' + _id, (Floats((2, 3, 4)),),
         lambda x, a=_axis, s=_start: F.rollaxis(x, a, s),
         lambda x, a=_axis, s=_start: numpy.rollaxis(x, a, s))

for _id, _src, _dst in (('int', 0, -1), ('tuple', (0, 1), (2, 0)),
                        ('neg', (-1,), (0,))):
    case('moveaxis-' + _id, (Floats((2, 3, 4)),),
         lambda x, s=_src, d=_dst: F.moveaxis(x, s, d),
         lambda x, s=_src, d=_dst: numpy.moveaxis(x, s, d))

for _id, _shape, _axis, _out in (('front', (3, 4), 0, (1, 3, 4)),
                                 ('middle', (3, 4), 1, (3, 1, 4)),
                                 ('end', (3, 4), 2, (3, 4, 1)),
                                 ('neg-end', (3, 4), -1, (3, 4, 1)),
                                 ('neg-front', (3, 4), -3, (1, 3, 4)),
                                 ('0dim', (), 0, (1,))):
    case('expand_dims-' + _id, (Floats(_shape),),
         lambda x, a=_axis: F.expand_dims(x, a),
         lambda x, s=_out: x.reshape(s))

for _id, _shape, _axis, _out in (('all', (1, 3, 1, 4), None, (3, 4)),
                                 ('one', (1, 3, 1, 4), 2, (1, 3, 4)),
                                 ('tuple-neg', (1, 3, 1, 4), (0, -2), (3, 4)),
                                 ('to-0dim', (1, 1), None, ())):
    case('squeeze-' + _id, (Floats(_shape),),
         lambda x, a=_axis: F.squeeze(x, a),
         lambda x, s=_out: x.reshape(s))

for _id, _shape in (('3d', (2, 3, 4)), ('0dim', ())):
    case('flatten-' + _id, (Floats(_shape),), F.flatten,
         lambda x: x.reshape(x.size))

# -- broadcast (several outputs)

case('broadcast-both', (Floats((3, 1)), Floats((4,))),
     lambda x, y: F.stack(F.broadcast(x, y)),
     lambda x, y: numpy.stack([x * numpy.ones((3, 4)),
                               y * numpy.ones((3, 4))]))
case('broadcast-unused-output', (Floats((3, 1)), Floats((2, 1, 4))),
     lambda x, y: F.broadcast(x, y)[0],
     lambda x, y: x * numpy.ones((2, 3, 4)))
case('broadcast-single', (Floats((3, 4)),), F.broadcast, lambda x: x)

# -- joining and splitting

for _id, _shapes, _axis in (('axis1', ((2, 3), (2, 1), (2, 4)), 1),
                            ('axis0', ((1, 3), (2, 3)), 0),
                            ('neg', ((2, 3, 1), (2, 3, 2)), -1),
                            ('single', ((2, 3),), 1)):
    case('concat-' + _id, tuple(Floats(s) for s in _shapes),
         lambda *xs, a=_axis: F.concat(xs, a),
         lambda *xs, a=_axis: numpy.concatenate(xs, a))
case('concat-default-axis', (Floats((2, 3)), Floats((2, 2))),
     lambda x, y: F.concat((x, y)),
     lambda x, y: numpy.concatenate((x, y), 1))

for _id, _n, _axis in (('axis0', 3, 0), ('axis1', 2, 1), ('end', 2, 2),
                       ('neg', 3, -3), ('single', 1, 1)):
    case('stack-' + _id, tuple(Floats((2, 4)) for _ in range(_n)),
         lambda *xs, a=_axis: F.stack(xs, a),
         lambda *xs, a=_axis: numpy.stack(xs, a))

for _name, _fn, _ref, _shapes in (
        ('hstack-2d', F.hstack, numpy.hstack, ((2, 3), (2, 1))),
        ('hstack-1d', F.hstack, numpy.hstack, ((3,), (2,))),
        ('hstack-0d', F.hstack, numpy.hstack, ((), ())),
        ('hstack-3d', F.hstack, numpy.hstack, ((2, 1, 3), (2, 2, 3))),
        ('vstack-2d', F.vstack, numpy.vstack, ((2, 3), (1, 3))),
        ('vstack-1d', F.vstack, numpy.vstack, ((3,), (3,))),
        ('vstack-0d', F.vstack, numpy.vstack, ((), ())),
        ('vstack-3d', F.vstack, numpy.vstack, ((1, 2, 3), (2, 2, 3))),
        ('dstack-3d', F.dstack, numpy.dstack, ((2, 3, 1), (2, 3, 2))),
        ('dstack-2d', F.dstack, numpy.dstack, ((2, 3), (2, 3))),
        ('dstack-1d', F.dstack, numpy.dstack, ((3,), (3,))),
        ('dstack-0d', F.dstack, numpy.dstack, ((), ())),
        ('dstack-4d', F.dstack, numpy.dstack, ((1, 2, 1, 2), (1, 2, 3, 2)))):
    case(_name, tuple(Floats(s) for s in _shapes),
         lambda *xs, f=_fn: f(xs), lambda *xs, r=_ref: r(xs))


def _pieces(x, bounds, axis):
    """The pieces of ``x`` between consecutive ``bounds`` along ``axis``."""
    edges = [0] + list(bounds) + [x.shape[axis]]
    head = (slice(None),) * axis
    return [x[head + (slice(a, b),)] for a, b in zip(edges, edges[1:])]


case('split_axis-sections', (Floats((2, 6, 2)),),
     lambda x: F.concat(F.split_axis(x, 3, 1)[::-1], 1),
     lambda x: numpy.concatenate(_pieces(x, [2, 4], 1)[::-1], 1))
case('split_axis-indices', (Floats((2, 6)),),
     lambda x: F.concat(F.split_axis(x, [1, 4], 1)[::-1], 1),
     lambda x: numpy.concatenate(_pieces(x, [1, 4], 1)[::-1], 1))
case('split_axis-unused-outputs', (Floats((5, 3)),),
     lambda x: F.split_axis(x, [1, 3], 0)[1],
     lambda x: x[1:3])
case('split_axis-neg-axis-and-index', (Floats((2, 3, 5)),),
     lambda x: F.split_axis(x, [-2], -1)[1],
     lambda x: x[..., 3:])
case('split_axis-empty-piece', (Floats((4, 3)),),
     lambda x: F.concat(F.split_axis(x, [2, 2, 9], 0), 0),
     lambda x: x)
case('split_axis-single', (Floats((2, 3)),),
     lambda x: F.split_axis(x, 1, 0, force_tuple=False),
     lambda x: x)

for _axis in (0, 1, -1):
    case('separate-axis{}'.format(_axis), (Floats((3, 2, 4)),),
         lambda x, a=_axis: F.stack(F.separate(x, a)[::-1], a),
         lambda x, a=_axis: numpy.flip(x, a))
case('separate-unused-outputs', (Floats((3, 4)),),
     lambda x: F.separate(x, 1)[2], lambda x: x[:, 2])

# -- selecting

case('select_item', (Floats((4, 3)),),
     lambda x, t: F.select_item(x, t),
     lambda x, t: numpy.array([x[i, t[i]] for i in range(len(t))]),
     consts={'t': Ints((4,), 0, 3)})
case('select_item-int64', (Floats((5, 2)),),
     lambda x, t: F.select_item(x, t),
     lambda x, t: numpy.array([x[i, t[i]] for i in range(len(t))]),
     consts={'t': Ints((5,), 0, 2, numpy.int64)})

case('where', (Floats((3, 4)), Floats((3, 4))),
     lambda x, y, c: F.where(c, x, y), lambda x, y, c: numpy.where(c, x, y),
     consts={'c': Mask((3, 4))})
case('where-broadcast', (Floats((3, 1)), Floats((4,))),
     lambda x, y, c: F.where(c, x, y), lambda x, y, c: numpy.where(c, x, y),
     consts={'c': Mask((2, 3, 4))})
case('where-scalar-y', (Floats((3, 4)),),
     lambda x, c: F.where(c, x, 0.5), lambda x, c: numpy.where(c, x, 0.5),
     consts={'c': Mask((3, 4))})


class Distinct:
    """Floats in ``[-1, 1]`` at least ``gap`` apart, in random order: no
    two elements tie within a numerical-differentiation step."""

    def __init__(self, shape, gap=0.05):
        self.shape, self.gap = shape, gap

    def make(self, rng, dtype):
        n = int(numpy.prod(self.shape))
        values = -1 + self.gap * numpy.arange(n)
        return rng.permutation(values).reshape(self.shape).astype(dtype)


def _rows_sorted(x, axis, descending):
    """Each 1-D slice along ``axis`` sorted by repeated selection of the
    minimum (or maximum)."""
    x = numpy.moveaxis(x, axis, -1)
    out = numpy.empty_like(x)
    for idx in numpy.ndindex(x.shape[:-1]):
        row = list(x[idx])
        for j in range(len(row)):
            pick = max(row) if descending else min(row)
            out[idx + (j,)] = pick
            row.remove(pick)
    return numpy.moveaxis(out, -1, axis)


for _id, _axis, _desc in (('last', -1, False), ('axis0', 0, False),
                          ('descending', 1, True)):
    case('sort-' + _id, (Distinct((3, 4)),),
         lambda x, a=_axis, d=_desc: F.sort(x, a, d),
         lambda x, a=_axis, d=_desc: _rows_sorted(x, a, d))

for _id, _k, _axis, _largest in (('largest', 2, -1, True),
                                 ('smallest', 3, 0, False),
                                 ('all', 4, 1, True),
                                 ('none', 0, 1, True)):
    case('top_k-' + _id, (Distinct((4, 4)),),
         lambda x, k=_k, a=_axis, lg=_largest: F.top_k(x, k, a, lg)[0],
         lambda x, k=_k, a=_axis, lg=_largest: numpy.take(
             _rows_sorted(x, a, lg), numpy.arange(k), axis=a))


def _along(x, indices, axis):
    """``y[..., j, ...] = x[..., indices[..., j, ...], ...]`` by loops, x
    and indices broadcast along the other axes."""
    shape = list(numpy.broadcast_shapes(
        x.shape[:axis] + (1,) + x.shape[axis + 1:],
        indices.shape[:axis] + (1,) + indices.shape[axis + 1:]))
    shape[axis] = indices.shape[axis]
    xb = numpy.broadcast_to(x, shape[:axis] + [x.shape[axis]]
                            + shape[axis + 1:])
    ib = numpy.broadcast_to(indices, shape)
    y = numpy.empty(shape)
    for idx in numpy.ndindex(*shape):
        src = list(idx)
        src[axis] = ib[idx]
        y[idx] = xb[tuple(src)]
    return y


case('take_along_axis', (Floats((3, 4)),),
     lambda x, i: F.take_along_axis(x, i, 1), lambda x, i: _along(x, i, 1),
     consts={'i': Fixed([[0, 3, 3], [1, 1, 0], [2, -1, 0]])})
case('take_along_axis-axis0-broadcast', (Floats((3, 1, 2)),),
     lambda x, i: F.take_along_axis(x, i, 0), lambda x, i: _along(x, i, 0),
     consts={'i': Fixed([[[0, 2]], [[2, 2]]])})
case('take_along_axis-default-axis', (Floats((2, 3)),),
     lambda x, i: F.take_along_axis(x, i), lambda x, i: _along(x, i, 1),
     consts={'i': Fixed([[2, 0, 2, 2], [1, 0, 1, 0]], numpy.int64)})
case('take_along_axis-flat', (Floats((2, 3)),),
     lambda x, i: F.take_along_axis(x, i, None),
     lambda x, i: x.reshape(-1)[i],
     consts={'i': Fixed([5, 0, 5, 3])})
case('gather', (Floats((3, 4)),),
     lambda x, i: F.gather(x, 1, i),
     lambda x, i: numpy.array([[x[r, i[r, c]] for c in range(i.shape[1])]
                               for r in range(i.shape[0])]),
     consts={'i': Fixed([[3, 3], [0, 1]])})
case('gather-axis0', (Floats((3, 4)),),
     lambda x, i: F.gather(x, 0, i),
     lambda x, i: numpy.array([[x[i[r, c], c] for c in range(i.shape[1])]
                               for r in range(i.shape[0])]),
     consts={'i': Fixed([[2, 0, 2, 1], [0, 0, 1, 2], [1, 1, 1, 1],
                         [2, 2, 0, 0]])})


def _scattered(x, axis, indices, updates):
    y = x.copy()
    for idx in numpy.ndindex(*indices.shape):
        dst = list(idx)
        dst[axis] = indices[idx]
        y[tuple(dst)] = updates[idx]
    return y


case('scatter', (Floats((3, 4)), Floats((2, 3))),
     lambda x, u, i: F.scatter(x, 1, i, u),
     lambda x, u, i: _scattered(x, 1, i, u),
     consts={'i': Fixed([[3, 0, 1], [2, -1, 0]])})
case('scatter-axis0', (Floats((3, 2)), Floats((2, 2))),
     lambda x, u, i: F.scatter(x, 0, i, u),
     lambda x, u, i: _scattered(x, 0, i, u),
     consts={'i': Fixed([[2, 0], [1, 2]])})
case('scatter-scalar', (Floats((3, 4)),),
     lambda x, i: F.scatter(x, 1, i, 0.25),
     lambda x, i: _scattered(x, 1, i, numpy.full(i.shape, 0.25)),
     consts={'i': Fixed([[1], [3], [0]])})

case('permutate', (Floats((4, 3)),),
     lambda x, i: F.permutate(x, i),
     lambda x, i: numpy.array([x[j] for j in i]),
     consts={'i': Fixed([2, 0, 3, 1])})
case('permutate-inv-axis1', (Floats((2, 4)),),
     lambda x, i: F.permutate(x, i, axis=1, inv=True),
     lambda x, i: x[:, [list(i).index(j) for j in range(len(i))]],
     consts={'i': Fixed([2, 0, 3, 1])})

# -- reversing

case('flip-axis0', (Floats((3, 4)),), lambda x: F.flip(x, 0),
     lambda x: x[::-1])
case('flip-neg', (Floats((2, 3, 4)),), lambda x: F.flip(x, -1),
     lambda x: x[..., ::-1])
case('fliplr', (Floats((2, 3, 4)),), F.fliplr, lambda x: x[:, ::-1])
case('flipud', (Floats((3,)),), F.flipud, lambda x: x[::-1])

# -- padding, tiling, repeating

for _id, _shape, _width, _mode, _kw in (
        ('constant', (2, 3), ((1, 0), (2, 1)), 'constant', {}),
        ('constant-int', (2, 3), 1, 'constant', {}),
        ('constant-value', (3,), (2, 1), 'constant',
         {'constant_values': 0.5}),
        ('edge', (2, 3), ((1, 2), (0, 2)), 'edge', {}),
        ('reflect', (2, 3), ((1, 1), (2, 2)), 'reflect', {}),
        ('reflect-wide', (3,), (4, 5), 'reflect', {}),
        ('symmetric', (2, 3), ((2, 1), (3, 0)), 'symmetric', {}),
        ('wrap', (2, 3), ((1, 2), (4, 1)), 'wrap', {})):
    case('pad-' + _id, (Floats(_shape),),
         lambda x, w=_width, m=_mode, kw=_kw: F.pad(x, w, m, **kw),
         lambda x, w=_width, m=_mode, kw=_kw: numpy.pad(x, w, m, **kw))


def _padded(xs, length, padding):
    y = numpy.full((len(xs), length) + xs[0].shape[1:], float(padding))
    for i, x in enumerate(xs):
        for j in range(len(x)):
            y[i, j] = x[j]
    return y


case('pad_sequence', (Floats((2, 3)), Floats((4, 3)), Floats((1, 3))),
     lambda *xs: F.pad_sequence(xs), lambda *xs: _padded(xs, 4, 0))
case('pad_sequence-length-padding', (Floats((2,)), Floats((3,))),
     lambda *xs: F.pad_sequence(xs, 5, -1),
     lambda *xs: _padded(xs, 5, -1))

for _id, _shape, _reps in (('int', (2, 3), 2), ('tuple', (2, 3), (3, 2)),
                           ('more-reps', (3,), (2, 1, 2)),
                           ('fewer-reps', (2, 1, 3), (2,)),
                           ('zero', (2, 3), (0, 1))):
    case('tile-' + _id, (Floats(_shape),),
         lambda x, r=_reps: F.tile(x, r),
         lambda x, r=_reps: numpy.tile(x, r))

for _id, _shape, _reps, _axis in (('flat', (2, 3), 2, None),
                                  ('axis', (2, 3), 3, 1),
                                  ('per-element', (3, 2), (1, 0, 3), 0),
                                  ('per-element-flat', (2, 2), (2, 1, 0, 1),
                                   None),
                                  ('one-tuple', (2, 3), (2,), -1)):
    case('repeat-' + _id, (Floats(_shape),),
         lambda x, r=_reps, a=_axis: F.repeat(x, r, a),
         lambda x, r=_reps, a=_axis: numpy.repeat(x, r, a))

# -- dtype and device

case('cast-roundtrip', (Floats((3, 4)),),
     lambda x: F.cast(F.cast(x, numpy.float64), x.dtype), lambda x: x)
case('cast-same', (Floats((3, 4)),), lambda x: F.cast(x, x.dtype),
     lambda x: x)
case('copy-same-device', (Floats((3, 4)),),
     lambda x: F.copy(x, x.device), lambda x: x)

# -- image layout


def _depth2space_ref(x, r):
    b, d, h, w = x.shape
    c = d // (r * r)
    y = numpy.empty((b, c, h * r, w * r))
    for n, k, p, q in numpy.ndindex(*y.shape):
        i, j = p % r, q % r
        y[n, k, p, q] = x[n, (i * r + j) * c + k, p // r, q // r]
    return y


def _space2depth_ref(x, r):
    b, c, hr, wr = x.shape
    y = numpy.empty((b, c * r * r, hr // r, wr // r))
    for n, ch, p, q in numpy.ndindex(*y.shape):
        block, k = divmod(ch, c)
        i, j = divmod(block, r)
        y[n, ch, p, q] = x[n, k, p * r + i, q * r + j]
    return y


case('depth2space', (Floats((2, 8, 2, 3)),),
     lambda x: F.depth2space(x, 2), lambda x: _depth2space_ref(x, 2))
case('depth2space-r1', (Floats((1, 3, 2, 2)),),
     lambda x: F.depth2space(x, 1), lambda x: x)
case('space2depth', (Floats((2, 2, 4, 6)),),
     lambda x: F.space2depth(x, 2), lambda x: _space2depth_ref(x, 2))
case('space2depth-r3', (Floats((1, 1, 3, 3)),),
     lambda x: F.space2depth(x, 3), lambda x: _space2depth_ref(x, 3))


def _source(i, n_in, n_out, mode, align_corners):
    """Where output pixel ``i`` reads along one axis: (lower, upper,
    weight of upper)."""
    if mode == 'bilinear':
        if align_corners:
            p = 0.0 if n_out == 1 else i * (n_in - 1) / (n_out - 1)
        else:
            p = max((i + 0.5) * n_in / n_out - 0.5, 0.0)
        lo = int(numpy.floor(p))
        return lo, min(lo + 1, n_in - 1), p - lo
    if align_corners:
        p = 0.0 if n_out == 1 else i * (n_in - 1) / (n_out - 1)
        return int(numpy.round(p)), 0, 0.0
    return min(int(numpy.floor(i * n_in / n_out)), n_in - 1), 0, 0.0


def _resized(x, out_h, out_w, mode='bilinear', align_corners=True):
    b, c, h, w = x.shape
    y = numpy.zeros((b, c, out_h, out_w))
    for i in range(out_h):
        v0, v1, a = _source(i, h, out_h, mode, align_corners)
        for j in range(out_w):
            u0, u1, e = _source(j, w, out_w, mode, align_corners)
            y[:, :, i, j] = ((1 - a) * (1 - e) * x[:, :, v0, u0]
                             + (1 - a) * e * x[:, :, v0, u1]
                             + a * (1 - e) * x[:, :, v1, u0]
                             + a * e * x[:, :, v1, u1])
    return y


_RESIZE_F16 = {f16: dict(atol=3e-3, rtol=3e-3)}
for _id, _in, _out, _mode, _align in (
        ('up', (3, 4), (5, 7), 'bilinear', True),
        ('down', (5, 6), (2, 4), 'bilinear', True),
        ('to-1', (3, 4), (1, 1), 'bilinear', True),
        ('up-opencv', (3, 4), (5, 7), 'bilinear', False),
        ('down-opencv', (5, 6), (3, 4), 'bilinear', False),
        ('nearest-up', (3, 4), (5, 7), 'nearest', True),
        ('nearest-down-opencv', (5, 6), (3, 4), 'nearest', False),
        ('nearest-up-opencv', (3, 4), (5, 7), 'nearest', False)):
    case('resize_images-' + _id, (Floats((2, 2) + _in),),
         lambda x, o=_out, m=_mode, a=_align: F.resize_images(
             x, o, mode=m, align_corners=a),
         lambda x, o=_out, m=_mode, a=_align: _resized(x, *o, m, a),
         fwd=_RESIZE_F16)


def _im2col_ref(x, k, s, p, cover_all=False, d=(1, 1)):
    n, c, h, w = x.shape
    outs = []
    for size, kk, ss, pp, dd in zip((h, w), k, s, p, d):
        span = (kk - 1) * dd + 1
        extra = ss - 1 if cover_all else 0
        outs.append((size + 2 * pp - span + extra) // ss + 1)
    y = numpy.zeros((n, c * k[0] * k[1]) + tuple(outs))
    for ch, i, j, oy, ox in numpy.ndindex(c, k[0], k[1], *outs):
        r = oy * s[0] + i * d[0] - p[0]
        q = ox * s[1] + j * d[1] - p[1]
        if 0 <= r < h and 0 <= q < w:
            y[:, (ch * k[0] + i) * k[1] + j, oy, ox] = x[:, ch, r, q]
    return y


for _id, _shape, _kw, _ref_kw in (
        ('basic', (2, 2, 4, 5), dict(ksize=2),
         dict(k=(2, 2), s=(1, 1), p=(0, 0))),
        ('stride-pad', (1, 2, 5, 4), dict(ksize=(3, 2), stride=2, pad=1),
         dict(k=(3, 2), s=(2, 2), p=(1, 1))),
        ('cover_all', (1, 1, 5, 5), dict(ksize=2, stride=2, cover_all=True),
         dict(k=(2, 2), s=(2, 2), p=(0, 0), cover_all=True)),
        ('dilate', (1, 2, 6, 5), dict(ksize=2, stride=(1, 2), pad=(0, 1),
                                      dilate=(2, 1)),
         dict(k=(2, 2), s=(1, 2), p=(0, 1), d=(2, 1)))):
    case('im2col-' + _id, (Floats(_shape),),
         lambda x, kw=_kw: F.im2col(x, **kw),
         lambda x, kw=_ref_kw: _im2col_ref(x, **kw))

# -- indexed updates and views

case('scatter_add-int-array', (Floats((3, 4)), Floats((3, 4))),
     lambda a, b: F.scatter_add(a, [0, 2, 0], b),
     lambda a, b: a + numpy.array([b[0] + b[2], numpy.zeros(4), b[1]]))
case('scatter_add-slice', (Floats((3, 4)), Floats((3, 2))),
     lambda a, b: F.scatter_add(a, (slice(None), slice(1, 3)), b),
     lambda a, b: a + numpy.pad(b, ((0, 0), (1, 1))))
case('scatter_add-pairs', (Floats((3, 4)), Floats((3,))),
     lambda a, b: F.scatter_add(a, ([1, 1, 2], [3, 3, 0]), b),
     lambda a, b: a + numpy.array([[0, 0, 0, 0], [0, 0, 0, b[0] + b[1]],
                                   [b[2], 0, 0, 0]]))

for _id, _shape, _kw in (('main', (3, 4), {}),
                         ('offset', (3, 4), dict(offset=1)),
                         ('neg-offset', (4, 3), dict(offset=-2)),
                         ('axes', (2, 3, 4), dict(axis1=2, axis2=0)),
                         ('axes-neg', (2, 3, 3), dict(offset=1, axis1=-1,
                                                      axis2=-2))):
    case('diagonal-' + _id, (Floats(_shape),),
         lambda x, kw=_kw: F.diagonal(x, **kw),
         lambda x, kw=_kw: numpy.diagonal(x, **kw).copy())


def _strided(x, shape, strides, offset):
    flat = x.reshape(-1)
    y = numpy.empty(shape)
    for idx in numpy.ndindex(*shape):
        y[idx] = flat[offset + sum(i * s for i, s in zip(idx, strides))]
    return y


for _id, _shape, _view in (('windows', (6,), ((4, 3), (1, 1), 0)),
                           ('overlap-offset', (2, 3), ((2, 2), (2, 1), 1)),
                           ('broadcast', (3,), ((2, 3), (0, 1), 0)),
                           ('negative', (2, 3), ((3,), (-2,), 5)),
                           ('0dim', (2, 3), ((), (), 4)),
                           ('default-offset', (2, 3), ((3, 2), (1, 3),
                                                       None))):
    case('as_strided-' + _id, (Floats(_shape),),
         lambda x, v=_view: F.as_strided(x, *v),
         lambda x, v=_view: _strided(x, v[0], v[1], v[2] or 0))


# transpose_sequence: the batches are concatenated (weighted by their
# step, so that each output's gradient differs) into one output.
def _transposed_ref(*xs):
    steps = [numpy.stack([x[t] for x in xs if len(x) > t])
             for t in range(len(xs[0]))]
    return numpy.concatenate([(t + 1) * s for t, s in enumerate(steps)])


def _transposed_call(*xs):
    ys = F.transpose_sequence(xs)
    return F.concat([y * (t + 1) for t, y in enumerate(ys)], axis=0)


case('transpose_sequence', (Floats((3, 2)), Floats((2, 2)), Floats((2, 2)),
                            Floats((1, 2))),
     _transposed_call, _transposed_ref)
case('transpose_sequence-1d', (Floats((4,)), Floats((1,))),
     _transposed_call, _transposed_ref)


def _st_grid_ref(theta, shape):
    h, w = shape
    out = numpy.empty((len(theta), 2, h, w))
    for i, yt in enumerate(numpy.linspace(-1, 1, h)):
        for j, xt in enumerate(numpy.linspace(-1, 1, w)):
            out[:, :, i, j] = theta @ numpy.array([xt, yt, 1.0])
    return out


def _st_sample_ref(x, grid):
    """Bilinear sampling, pixel by pixel, zeros outside."""
    n, c, h, w = x.shape
    out = numpy.zeros((n, c) + grid.shape[2:])
    for b in range(n):
        for i in range(grid.shape[2]):
            for j in range(grid.shape[3]):
                u = (grid[b, 0, i, j] + 1) * (w - 1) / 2
                v = (grid[b, 1, i, j] + 1) * (h - 1) / 2
                for yy in (int(numpy.floor(v)), int(numpy.floor(v)) + 1):
                    for xx in (int(numpy.floor(u)), int(numpy.floor(u)) + 1):
                        if 0 <= yy < h and 0 <= xx < w:
                            weight = (1 - abs(v - yy)) * (1 - abs(u - xx))
                            out[b, :, i, j] += weight * x[b, :, yy, xx]
    return out


class _OffPixelGrid:
    """Grid points in [-1.2, 1.2] (some outside the image) whose pixel
    coordinates stay 0.1 away from integers, where bilinear sampling has
    kinks."""

    def __init__(self, shape, dims):
        self.shape, self.dims = shape, dims

    def make(self, rng, dtype):
        out = numpy.empty(self.shape)
        for axis, size in enumerate(self.dims):
            scale = (size - 1) / 2
            pixel = rng.randint(-1, size, self.shape[:1] + self.shape[2:]) \
                + rng.uniform(0.1, 0.9, self.shape[:1] + self.shape[2:])
            out[:, axis] = pixel / scale - 1
        return out.astype(dtype)


case('spatial_transformer_grid', (Floats((2, 2, 3)),),
     lambda t: F.spatial_transformer_grid(t, (3, 4)),
     lambda t: _st_grid_ref(t, (3, 4)))
case('spatial_transformer_sampler',
     (Floats((2, 3, 4, 5)), _OffPixelGrid((2, 2, 3, 2), (5, 4))),
     F.spatial_transformer_sampler, _st_sample_ref, double=False,
     fwd={f16: dict(atol=4e-3)}, bwd={f16: dict(atol=2e-2, rtol=2e-2)})
