"""The op table of the conformance suite.

Each :class:`Case` is one op, or one notable variant of it: how to make its
inputs, how to call it, a NumPy reference computed here in float64 (never
through chainer_core), whether it is differentiable twice, and the
tolerances that differ from the defaults below.
"""
import dataclasses

import numpy

import chainer_core.functions as F

f16, f32, f64 = numpy.float16, numpy.float32, numpy.float64
DTYPES = (f16, f32, f64)

# Forward: float16 rounds each result to ~5e-4 relative; float32 and
# float64 are held to a few ulps of the float64 reference.
FORWARD_TOL = {
    f16: dict(atol=1e-3, rtol=2e-3),
    f32: dict(atol=1e-6, rtol=1e-5),
    f64: dict(atol=1e-12, rtol=1e-10),
}
# Gradient checks compare one directional derivative. float16 backprop is
# checked against a float64 numerical derivative (as Chainer tests it), so
# its tolerance covers float16 rounding of the analytic side only; float32
# differentiates numerically in float32, whose rounding the step amplifies.
BACKWARD_TOL = {
    f16: dict(atol=5e-3, rtol=1e-2),
    f32: dict(atol=1e-3, rtol=1e-3),
    f64: dict(atol=1e-6, rtol=1e-5),
}
DOUBLE_TOL = {
    f16: dict(atol=1e-2, rtol=2e-2),
    f32: dict(atol=2e-3, rtol=2e-3),
    f64: dict(atol=1e-5, rtol=1e-4),
}


# -- input generators

class Floats:
    """Uniform floats in ``[low, high]``, of the dtype under test."""

    def __init__(self, shape, low=-1.0, high=1.0):
        self.shape, self.low, self.high = shape, low, high

    def make(self, rng, dtype):
        return rng.uniform(self.low, self.high, self.shape).astype(dtype)


class Signed:
    """Floats of random sign with magnitude in ``[low, high]``: keeps
    inputs away from zero (relu's kink, a divisor's pole)."""

    def __init__(self, shape, low=0.2, high=1.0):
        self.shape, self.low, self.high = shape, low, high

    def make(self, rng, dtype):
        magnitude = rng.uniform(self.low, self.high, self.shape)
        sign = rng.choice((-1.0, 1.0), self.shape)
        return (sign * magnitude).astype(dtype)


class Ints:
    """Integers in ``[low, high)`` (labels); the dtype under test does not
    apply."""

    def __init__(self, shape, low, high, dtype=numpy.int32):
        self.shape, self.low, self.high, self.dtype = shape, low, high, dtype

    def make(self, rng, dtype):
        return rng.randint(self.low, self.high, self.shape).astype(
            self.dtype)


class Fixed:
    """Given values, e.g. labels that include ``ignore_label``."""

    def __init__(self, values, dtype=numpy.int32):
        self.values, self.dtype = values, dtype

    def make(self, rng, dtype):
        return numpy.array(self.values, dtype=self.dtype)


class Mask:
    """A boolean mask with both values present."""

    def __init__(self, shape):
        self.shape = shape

    def make(self, rng, dtype):
        mask = rng.uniform(size=self.shape) < 0.5
        mask.flat[0], mask.flat[-1] = True, False
        return mask


# -- the case record

@dataclasses.dataclass(frozen=True)
class Case:
    """One op variant.

    ``call(*variables, **consts)`` runs the op; ``ref(*arrays, **consts)``
    computes the expected output from float64 copies of the inputs. Values
    in ``consts`` that are generators are made per dtype; NumPy arrays among
    them are sent to the device under test for ``call`` (index arrays,
    masks, class weights) and stay on the host for ``ref``. ``fwd``, ``bwd``
    and ``dbl`` override the default tolerances per dtype.
    """

    id: str
    inputs: tuple
    call: object
    ref: object
    consts: dict = dataclasses.field(default_factory=dict)
    double: bool = True
    fwd: dict = dataclasses.field(default_factory=dict)
    bwd: dict = dataclasses.field(default_factory=dict)
    dbl: dict = dataclasses.field(default_factory=dict)

    def tolerance(self, kind, dtype):
        default, override = {
            'forward': (FORWARD_TOL, self.fwd),
            'backward': (BACKWARD_TOL, self.bwd),
            'double': (DOUBLE_TOL, self.dbl),
        }[kind]
        tol = dict(default[dtype])
        tol.update(override.get(dtype, {}))
        return tol


CASES = []


def case(*args, **kwargs):
    """Add a :class:`Case` to the table."""
    CASES.append(Case(*args, **kwargs))


# -- arithmetic

def _binary_cases(name, fn, ref, rhs_gen):
    """Shape variants of a broadcasting binary op; ``rhs_gen(shape)`` makes
    its right operand (the divisor of div stays away from zero)."""
    for variant, lhs_shape, rhs_shape in (
            ('same', (3, 4), (3, 4)),
            ('bcast-row', (3, 4), (4,)),
            ('bcast-both', (3, 1), (1, 4)),
            ('bcast-lhs', (4,), (2, 3, 4)),
            ('0dim', (), (2, 3))):
        case('{}-{}'.format(name, variant),
             (Floats(lhs_shape), rhs_gen(rhs_shape)), fn, ref)
    case(name + '-var-const', (Floats((3, 4)),),
         lambda x: fn(x, 1.5), lambda x: ref(x, 1.5))
    case(name + '-const-var', (rhs_gen((3, 4)),),
         lambda x: fn(1.5, x), lambda x: ref(1.5, x))


_binary_cases('add', F.add, lambda a, b: a + b, Floats)
_binary_cases('sub', F.sub, lambda a, b: a - b, Floats)
_binary_cases('mul', F.mul, lambda a, b: a * b, Floats)
_binary_cases('div', F.div, lambda a, b: a / b,
              lambda shape: Signed(shape, 0.5, 1.5))

case('neg', (Floats((3, 4)),), F.neg, lambda x: 0.0 - x)
case('neg-0dim', (Floats(()),), F.neg, lambda x: 0.0 - x)

# pow: the base stays positive where the exponent is not an integer, and
# away from zero where the exponent is negative.
case('pow-var-var', (Floats((3, 4), 0.5, 2.0), Floats((3, 4), -1.5, 1.5)),
     F.pow, lambda a, b: numpy.exp(b * numpy.log(a)),
     fwd={f16: dict(rtol=4e-3)})
case('pow-var-var-bcast', (Floats((3, 4), 0.5, 2.0), Floats((4,), -1.5, 1.5)),
     F.pow, lambda a, b: numpy.exp(b * numpy.log(a)),
     fwd={f16: dict(rtol=4e-3)})
case('pow-var-const-square', (Floats((3, 4)),),
     lambda x: F.pow(x, 2), lambda x: x * x)
case('pow-var-const-frac', (Floats((3, 4), 0.5, 2.0),),
     lambda x: F.pow(x, 1.5), lambda x: x * numpy.sqrt(x))
case('pow-var-const-neg', (Signed((3, 4), 0.5, 1.5),),
     lambda x: F.pow(x, -1.0), lambda x: 1.0 / x)
case('pow-const-var', (Floats((3, 4), -2.0, 2.0),),
     lambda x: F.pow(2.0, x), lambda x: numpy.exp(x * numpy.log(2.0)))

case('exp', (Floats((3, 4), -2.0, 2.0),), F.exp,
     lambda x: numpy.e ** x, fwd={f16: dict(atol=5e-3)})
case('log', (Floats((3, 4), 0.5, 3.0),), F.log, numpy.log)


# -- reductions

def _add_over(x, axes, keepdims=False):
    """Sum over ``axes`` by explicit accumulation along each axis."""
    axes = sorted(a % x.ndim for a in axes)
    out = x
    for a in reversed(axes):
        acc = numpy.zeros(out.shape[:a] + out.shape[a + 1:])
        for i in range(out.shape[a]):
            acc = acc + numpy.take(out, i, axis=a)
        out = acc
    if keepdims:
        out = out.reshape([1 if i in axes else s
                           for i, s in enumerate(x.shape)])
    return out


for _id, _axis, _keep in (
        ('all', None, False), ('axis1', 1, False), ('axis-neg', -1, False),
        ('axes02', (0, 2), False), ('keepdims-all', None, True),
        ('keepdims-axis1', 1, True), ('axes-neg', (-3, -1), True)):
    case('sum-' + _id, (Floats((2, 3, 4)),),
         lambda x, a=_axis, k=_keep: F.sum(x, axis=a, keepdims=k),
         lambda x, a=_axis, k=_keep: _add_over(
             x, range(x.ndim) if a is None else
             (a,) if isinstance(a, int) else a, k),
         fwd={f16: dict(atol=5e-3)})
case('sum-1d', (Floats((5,)),), F.sum, lambda x: _add_over(x, (0,)),
     fwd={f16: dict(atol=5e-3)})


def _sum_to_ref(x, shape):
    lead = x.ndim - len(shape)
    axes = list(range(lead)) + [lead + i for i, s in enumerate(shape)
                                if s == 1 and x.shape[lead + i] != 1]
    return _add_over(x, axes).reshape(shape)


for _id, _shape in (('lead', (4,)), ('lead-and-inner', (3, 1)),
                    ('inner', (2, 1, 4)), ('scalar', ())):
    case('sum_to-' + _id, (Floats((2, 3, 4)),),
         lambda x, s=_shape: F.sum_to(x, s),
         lambda x, s=_shape: _sum_to_ref(x, s),
         fwd={f16: dict(atol=5e-3)})


# -- matmul

def _matmul_ref(a, b, transa=False, transb=False):
    if transa:
        a = numpy.swapaxes(a, -1, -2)
    if transb:
        b = numpy.swapaxes(b, -1, -2)
    return numpy.einsum('...ij,...jk->...ik', a, b)


for _id, _a, _b, _ta, _tb in (
        ('2d', (3, 4), (4, 2), False, False),
        ('2d-transa', (4, 3), (4, 2), True, False),
        ('2d-transb', (3, 4), (2, 4), False, True),
        ('2d-transab', (4, 3), (2, 4), True, True),
        ('batched', (2, 3, 4), (2, 4, 2), False, False),
        ('batched-transa', (2, 4, 3), (2, 4, 2), True, False),
        ('batched-transab', (2, 4, 3), (2, 2, 4), True, True),
        ('batch-bcast', (2, 1, 3, 4), (3, 4, 2), False, False),
        ('2d-by-batched', (3, 4), (2, 4, 2), False, False)):
    case('matmul-' + _id, (Floats(_a), Floats(_b)),
         lambda a, b, ta=_ta, tb=_tb: F.matmul(a, b, transa=ta, transb=tb),
         lambda a, b, ta=_ta, tb=_tb: _matmul_ref(a, b, ta, tb),
         fwd={f16: dict(atol=3e-3)})


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


# -- activations

case('relu', (Signed((3, 4), 0.1, 1.0),), F.relu,
     lambda x: numpy.where(x > 0, x, 0.0))
case('relu-3d', (Signed((2, 3, 4), 0.1, 1.0),), F.relu,
     lambda x: numpy.where(x > 0, x, 0.0))
case('sigmoid', (Floats((3, 4), -3.0, 3.0),), F.sigmoid,
     lambda x: 1.0 / (1.0 + numpy.exp(-x)))
case('tanh', (Floats((3, 4), -2.0, 2.0),), F.tanh,
     lambda x: (1.0 - numpy.exp(-2 * x)) / (1.0 + numpy.exp(-2 * x)))


def _log_softmax_ref(x, axis):
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - numpy.log(numpy.exp(shifted).sum(axis=axis,
                                                      keepdims=True))


for _id, _shape, _axis in (('', (3, 4), 1), ('-axis0', (3, 4), 0),
                           ('-3d-neg-axis', (2, 3, 4), -1)):
    case('softmax' + _id, (Floats(_shape, -2.0, 2.0),),
         lambda x, a=_axis: F.softmax(x, axis=a),
         lambda x, a=_axis: numpy.exp(_log_softmax_ref(x, a)))
    case('log_softmax' + _id, (Floats(_shape, -2.0, 2.0),),
         lambda x, a=_axis: F.log_softmax(x, axis=a),
         lambda x, a=_axis: _log_softmax_ref(x, a),
         fwd={f16: dict(atol=3e-3)})


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
