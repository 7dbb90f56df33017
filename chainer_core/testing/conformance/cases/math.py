"""Cases of the math ops: arithmetic, elementwise and special functions,
reductions and scans, linear algebra."""
import numpy

import chainer_core.functions as F

from . import Fixed, Floats, Ints, Signed, case, f16

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


# -- input generators of the math cases


class Pieces:
    """Floats drawn from a random one of ``intervals`` per element: keeps
    inputs off kinks (clip's edges), ties (maximum) and integers (floor)."""

    def __init__(self, shape, intervals):
        self.shape, self.intervals = shape, intervals

    def make(self, rng, dtype):
        which = rng.randint(len(self.intervals), size=self.shape)
        low = numpy.array([lo for lo, _ in self.intervals])[which]
        high = numpy.array([hi for _, hi in self.intervals])[which]
        return rng.uniform(low, high).astype(dtype)


class Spread:
    """Distinct floats evenly spread over ``[low, high]`` in random order:
    no ties even in float16 (max, min)."""

    def __init__(self, shape, low=-1.0, high=1.0):
        self.shape, self.low, self.high = shape, low, high

    def make(self, rng, dtype):
        n = int(numpy.prod(self.shape))
        values = numpy.linspace(self.low, self.high, n)[rng.permutation(n)]
        return values.reshape(self.shape).astype(dtype)


class WellConditioned:
    """Matrices ``2 I + U(-0.3, 0.3)`` (batched over leading axes): far from
    singular, so inv and det stay accurate in float16."""

    def __init__(self, shape):
        self.shape = shape

    def make(self, rng, dtype):
        noise = rng.uniform(-0.3, 0.3, self.shape)
        return (noise + 2 * numpy.eye(self.shape[-1])).astype(dtype)


# -- references shared by several math cases

def _einsum_ref(subscripts, *operands):
    """Einstein summation by looping over every assignment of the labels
    (the operands are small)."""
    import itertools
    inputs, output = subscripts.split('->')
    inputs = inputs.split(',')
    sizes = {}
    for sub, x in zip(inputs, operands):
        for c, n in zip(sub, x.shape):
            sizes[c] = n
    labels = sorted(sizes)
    out = numpy.zeros([sizes[c] for c in output])
    for values in itertools.product(*[range(sizes[c]) for c in labels]):
        at = dict(zip(labels, values))
        term = 1.0
        for sub, x in zip(inputs, operands):
            term *= x[tuple(at[c] for c in sub)]
        out[tuple(at[c] for c in output)] += term
    return out


def _det_ref(a):
    """Determinant by cofactor expansion along the first row."""
    n = a.shape[0]
    if n == 1:
        return a[0, 0]
    total = 0.0
    for j in range(n):
        minor = numpy.delete(a[1:], j, axis=1)
        total += (-1) ** j * a[0, j] * _det_ref(minor)
    return total


def _inv_ref(a):
    """Inverse as the adjugate over the determinant."""
    n = a.shape[0]
    adj = numpy.empty((n, n))
    for i in range(n):
        for j in range(n):
            minor = numpy.delete(numpy.delete(a, i, axis=0), j, axis=1)
            adj[j, i] = (-1) ** (i + j) * _det_ref(minor)
    return adj / _det_ref(a)


def _elementwise(fn):
    """A float64 reference from a scalar function of the math module."""
    return lambda x: numpy.vectorize(fn, otypes=[numpy.float64])(x)


def _erfinv_ref(y):
    """erfinv by bisection on math.erf."""
    import math

    def one(v):
        lo, hi = -6.0, 6.0
        for _ in range(200):
            mid = (lo + hi) / 2
            if math.erf(mid) < v:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2
    return _elementwise(one)(y)


def _digamma_ref(x):
    """psi(x) = -gamma + sum_k (1/(k+1) - 1/(k+x)): 2000 terms, the tail by
    Euler-Maclaurin; reflection for x < 1/2."""
    import math

    def one(v):
        if v < 0.5:
            return one(1 - v) - math.pi / math.tan(math.pi * v)
        k = numpy.arange(2000)
        head = (1.0 / (k + 1) - 1.0 / (k + v)).sum()
        big = 2000.0
        f = (v - 1) / ((big + 1) * (big + v))
        df = -(v - 1) * (2 * big + v + 1) / ((big + 1) * (big + v)) ** 2
        tail = math.log((big + v) / (big + 1)) + f / 2 - df / 12
        return -0.5772156649015329 + head + tail
    return _elementwise(one)(x)


def _polygamma_ref(n, x):
    """psi^(n)(x) = (-1)^(n+1) n! sum_k (x+k)^-(n+1) for n >= 1 (x > 0):
    2000 terms, the tail by Euler-Maclaurin; digamma for n = 0."""
    import math

    def one(order, v):
        if order == 0:
            return float(_digamma_ref(numpy.array(v)))
        s = order + 1
        k = numpy.arange(2000)
        head = ((v + k) ** -s).sum()
        w = v + 2000.0
        tail = w ** (1 - s) / (s - 1) + w ** -s / 2 + s * w ** (-s - 1) / 12
        return (-1) ** (order + 1) * math.factorial(order) * (head + tail)
    return numpy.vectorize(one, otypes=[numpy.float64])(n, x)


# -- elementwise math

case('log1p', (Floats((3, 4), -0.5, 2.0),), F.log1p,
     lambda x: numpy.log(1.0 + x))
case('log2', (Floats((3, 4), 0.5, 3.0),), F.log2,
     lambda x: numpy.log(x) / numpy.log(2.0))
case('log10', (Floats((3, 4), 0.5, 3.0),), F.log10,
     lambda x: numpy.log(x) / numpy.log(10.0))
case('expm1', (Floats((3, 4), -1.0, 1.0),), F.expm1,
     lambda x: numpy.exp(x) - 1.0, fwd={f16: dict(atol=2e-3)})
case('sqrt', (Floats((3, 4), 0.5, 3.0),), F.sqrt, lambda x: x ** 0.5)
case('rsqrt', (Floats((3, 4), 0.5, 3.0),), F.rsqrt, lambda x: x ** -0.5)
case('square', (Floats((3, 4)),), F.square, lambda x: x * x)
case('square-0dim', (Floats(()),), F.square, lambda x: x * x)
case('absolute', (Signed((3, 4)),), F.absolute,
     lambda x: numpy.where(x < 0, -x, x))
case('sin', (Floats((3, 4), -3.0, 3.0),), F.sin, numpy.sin)
case('cos', (Floats((3, 4), -3.0, 3.0),), F.cos, numpy.cos)
case('tan', (Floats((3, 4), -1.2, 1.2),), F.tan,
     lambda x: numpy.sin(x) / numpy.cos(x), fwd={f16: dict(atol=3e-3)},
     bwd={f16: dict(atol=1e-2, rtol=2e-2)})
case('arcsin', (Floats((3, 4), -0.8, 0.8),), F.arcsin, numpy.arcsin)
case('arccos', (Floats((3, 4), -0.8, 0.8),), F.arccos, numpy.arccos,
     fwd={f16: dict(atol=3e-3)})
case('arctan', (Floats((3, 4), -3.0, 3.0),), F.arctan, numpy.arctan)
case('arctan2', (Signed((3, 4)), Signed((3, 4))), F.arctan2,
     numpy.arctan2, fwd={f16: dict(atol=5e-3)})
case('arctan2-bcast', (Signed((3, 1)), Signed((4,))), F.arctan2,
     numpy.arctan2, fwd={f16: dict(atol=5e-3)})
case('sinh', (Floats((3, 4), -2.0, 2.0),), F.sinh,
     lambda x: (numpy.exp(x) - numpy.exp(-x)) / 2)
case('cosh', (Floats((3, 4), -2.0, 2.0),), F.cosh,
     lambda x: (numpy.exp(x) + numpy.exp(-x)) / 2,
     fwd={f16: dict(atol=3e-3)})

# Not differentiable (the outputs leave the graph): forward, and a zero
# gradient away from the integers.
_off_integers = [(k + 0.2, k + 0.8) for k in range(-3, 3)]
case('floor', (Pieces((3, 4), _off_integers),), F.floor,
     lambda x: x - numpy.mod(x, 1.0), double=False)
case('ceil', (Pieces((3, 4), _off_integers),), F.ceil,
     lambda x: x - numpy.mod(x, 1.0) + 1.0, double=False)
case('fix', (Pieces((3, 4), _off_integers),), F.fix,
     lambda x: numpy.where(x < 0, x - numpy.mod(x, 1.0) + 1.0,
                           x - numpy.mod(x, 1.0)), double=False)
case('sign', (Signed((3, 4)),), F.sign,
     lambda x: numpy.where(x > 0, 1.0, -1.0), double=False)

# fmod: |x / divisor| in [1.1, 1.8], away from the integers where fmod
# jumps.
case('fmod', (Signed((3, 4), 1.1, 1.7), Signed((3, 4), 0.95, 1.0)),
     F.fmod, lambda x, d: x - numpy.trunc(x / d) * d,
     fwd={f16: dict(atol=3e-3)})
case('fmod-bcast', (Signed((3, 4), 1.1, 1.7), Signed((4,), 0.95, 1.0)),
     F.fmod, lambda x, d: x - numpy.trunc(x / d) * d,
     fwd={f16: dict(atol=3e-3)})

_off_clip_edges = [(-1.0, -0.6), (-0.4, 0.4), (0.6, 1.0)]
case('clip', (Pieces((3, 4), _off_clip_edges),),
     lambda x: F.clip(x, -0.5, 0.5),
     lambda x: numpy.where(x < -0.5, -0.5, numpy.where(x > 0.5, 0.5, x)))
case('clip-no-min', (Pieces((3, 4), _off_clip_edges),),
     lambda x: F.clip(x, None, 0.5),
     lambda x: numpy.where(x > 0.5, 0.5, x))
case('clip-no-max', (Pieces((3, 4), _off_clip_edges),),
     lambda x: F.clip(x, -0.5, None),
     lambda x: numpy.where(x < -0.5, -0.5, x))

# maximum and minimum: the operands come from interleaved intervals, so
# each wins somewhere and they never tie.
_lhs = [(-1.0, -0.6), (0.1, 0.5)]
_rhs = [(-0.5, 0.0), (0.6, 1.0)]
for _name, _fn, _ref in (('maximum', F.maximum, lambda a, b: numpy.where(
        a > b, a, b)), ('minimum', F.minimum, lambda a, b: numpy.where(
        a < b, a, b))):
    case(_name, (Pieces((3, 4), _lhs), Pieces((3, 4), _rhs)), _fn, _ref)
    case(_name + '-bcast', (Pieces((3, 1), _lhs), Pieces((4,), _rhs)),
         _fn, _ref)

case('squared_difference', (Floats((3, 4)), Floats((3, 4))),
     F.squared_difference, lambda a, b: (a - b) * (a - b))
case('squared_difference-bcast', (Floats((3, 4)), Floats((4,))),
     F.squared_difference, lambda a, b: (a - b) * (a - b))
case('linear_interpolate', (Floats((3, 4), 0.0, 1.0), Floats((3, 4)),
                            Floats((3, 4))),
     F.linear_interpolate, lambda p, x, y: p * x + (1.0 - p) * y)

# Special functions: references from Python's math module, bisection and
# series independent of the implementation.
case('erf', (Floats((3, 4), -2.0, 2.0),), F.erf, _elementwise(
    __import__('math').erf))
case('erfc', (Floats((3, 4), -2.0, 3.0),), F.erfc, _elementwise(
    __import__('math').erfc))
case('erfinv', (Floats((3, 4), -0.9, 0.9),), F.erfinv, _erfinv_ref,
     fwd={f16: dict(atol=3e-3)}, bwd={f16: dict(atol=1e-2, rtol=2e-2)})
case('lgamma', (Pieces((3, 4), [(0.3, 4.0), (-1.8, -1.2)]),), F.lgamma,
     _elementwise(__import__('math').lgamma), fwd={f16: dict(atol=3e-3)})
case('digamma', (Pieces((3, 4), [(0.5, 4.0), (-1.8, -1.2)]),), F.digamma,
     _digamma_ref, fwd={f16: dict(atol=1e-2)},
     bwd={f16: dict(atol=1e-2, rtol=2e-2)})
case('polygamma', (Ints((3, 4), 0, 3), Floats((3, 4), 0.5, 3.0)),
     F.polygamma, _polygamma_ref, fwd={f16: dict(atol=1e-2, rtol=5e-3)},
     bwd={f16: dict(atol=5e-2, rtol=2e-2)},
     dbl={f16: dict(atol=1e-1, rtol=5e-2)})


# -- reductions and scans

_AXES = (('all', None, False), ('axis1', 1, False), ('axis-neg', -1, True),
         ('axes02', (0, 2), False), ('keepdims-all', None, True))


def _reduce_size(x, axis):
    axes = range(x.ndim) if axis is None else \
        (axis,) if isinstance(axis, int) else axis
    return int(numpy.prod([x.shape[a] for a in axes]))


for _id, _axis, _keep in _AXES:
    case('mean-' + _id, (Floats((2, 3, 4)),),
         lambda x, a=_axis, k=_keep: F.mean(x, axis=a, keepdims=k),
         lambda x, a=_axis, k=_keep: _add_over(
             x, range(x.ndim) if a is None else
             (a,) if isinstance(a, int) else a, k) / _reduce_size(x, a))
    for _name, _fn, _pick in (('max', F.max, numpy.maximum),
                              ('min', F.min, numpy.minimum)):
        case('{}-{}'.format(_name, _id), (Spread((2, 3, 4)),),
             lambda x, a=_axis, k=_keep, f=_fn: f(x, axis=a, keepdims=k),
             lambda x, a=_axis, k=_keep, p=_pick: p.reduce(
                 x, axis=a, keepdims=k))
    case('logsumexp-' + _id, (Floats((2, 3, 4), -2.0, 2.0),),
         lambda x, a=_axis: F.logsumexp(x, axis=a),
         lambda x, a=_axis: numpy.log(_add_over(
             numpy.exp(x), range(x.ndim) if a is None else
             (a,) if isinstance(a, int) else a)),
         fwd={f16: dict(atol=3e-3)})


def _prod_ref(x, axis, keepdims):
    axes = range(x.ndim) if axis is None else \
        (axis,) if isinstance(axis, int) else axis
    out = x
    for a in sorted((a % x.ndim for a in axes), reverse=True):
        acc = numpy.ones(out.shape[:a] + out.shape[a + 1:])
        for i in range(out.shape[a]):
            acc = acc * numpy.take(out, i, axis=a)
        out = acc if not keepdims else numpy.expand_dims(acc, a)
    return out


for _id, _axis, _keep in (('all', None, False), ('axis1', 1, False),
                          ('axes02-keepdims', (0, 2), True)):
    case('prod-' + _id, (Signed((2, 3, 2), 0.5, 1.5),),
         lambda x, a=_axis, k=_keep: F.prod(x, axis=a, keepdims=k),
         lambda x, a=_axis, k=_keep: _prod_ref(x, a, k))

case('average-weights-axis', (Floats((3, 4)), Floats((4,), 0.5, 1.5)),
     lambda x, w: F.average(x, axis=1, weights=w),
     lambda x, w: (x * w).sum(axis=1) / w.sum())
case('average-weights-all', (Floats((3, 4)), Floats((3, 4), 0.5, 1.5)),
     lambda x, w: F.average(x, weights=w),
     lambda x, w: (x * w).sum() / w.sum())
case('average-keepdims', (Floats((3, 4)), Floats((3,), 0.5, 1.5)),
     lambda x, w: F.average(x, axis=0, weights=w, keepdims=True),
     lambda x, w: (x * w[:, None]).sum(axis=0, keepdims=True) / w.sum())


def _scan_ref(x, axis, op):
    out = numpy.array(x)
    moved = numpy.moveaxis(out, axis, 0)
    for i in range(1, moved.shape[0]):
        moved[i] = op(moved[i - 1], moved[i])
    return out


for _id, _axis in (('axis0', 0), ('axis-neg', -1)):
    case('cumsum-' + _id, (Floats((3, 4)),),
         lambda x, a=_axis: F.cumsum(x, axis=a),
         lambda x, a=_axis: _scan_ref(x, a, numpy.add),
         fwd={f16: dict(atol=3e-3)})
    case('cumprod-' + _id, (Signed((3, 4), 0.5, 1.5),),
         lambda x, a=_axis: F.cumprod(x, axis=a),
         lambda x, a=_axis: _scan_ref(x, a, numpy.multiply),
         fwd={f16: dict(atol=3e-3)})
case('cumsum-flat', (Floats((2, 3)),), F.cumsum,
     lambda x: _scan_ref(x.ravel(), 0, numpy.add),
     fwd={f16: dict(atol=3e-3)})
case('cumprod-flat', (Signed((2, 3), 0.5, 1.5),), F.cumprod,
     lambda x: _scan_ref(x.ravel(), 0, numpy.multiply),
     fwd={f16: dict(atol=3e-3)})


# -- broadcasting along axes

case('bias', (Floats((2, 3, 4)), Floats((3,))),
     lambda x, y: F.bias(x, y, axis=1), lambda x, y: x + y[:, None])
case('bias-2axes', (Floats((2, 3, 4)), Floats((3, 4))),
     lambda x, y: F.bias(x, y, axis=1), lambda x, y: x + y)
case('scale', (Floats((2, 3, 4)), Floats((2, 3))),
     lambda x, y: F.scale(x, y, axis=0), lambda x, y: x * y[:, :, None])


# -- linear algebra

def _batch_matmul(*args, **kwargs):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        return F.batch_matmul(*args, **kwargs)


case('batch_matmul', (Floats((2, 3, 4)), Floats((2, 4, 2))),
     _batch_matmul, lambda a, b: _matmul_ref(a, b),
     fwd={f16: dict(atol=3e-3)})
case('batch_matmul-vectors', (Floats((2, 3)), Floats((2, 3))),
     lambda a, b: _batch_matmul(a, b, transa=True),
     lambda a, b: _matmul_ref(a[:, None, :], b[:, :, None]),
     fwd={f16: dict(atol=3e-3)})
case('det', (WellConditioned((3, 3)),), F.det, _det_ref,
     fwd={f16: dict(atol=1e-2, rtol=4e-3)},
     bwd={f16: dict(atol=3e-2, rtol=2e-2)},
     dbl={f16: dict(atol=1e-1, rtol=5e-2)})
case('batch_det', (WellConditioned((2, 3, 3)),), F.batch_det,
     lambda a: numpy.array([_det_ref(m) for m in a]),
     fwd={f16: dict(atol=1e-2, rtol=4e-3)},
     bwd={f16: dict(atol=3e-2, rtol=2e-2)},
     dbl={f16: dict(atol=1e-1, rtol=5e-2)})
case('inv', (WellConditioned((3, 3)),), F.inv, _inv_ref,
     bwd={f16: dict(atol=1e-2, rtol=2e-2)})
case('batch_inv', (WellConditioned((2, 3, 3)),), F.batch_inv,
     lambda a: numpy.array([_inv_ref(m) for m in a]),
     bwd={f16: dict(atol=1e-2, rtol=2e-2)})

for _sub, _shapes in (
        ('ij,jk->ik', ((2, 3), (3, 4))),
        ('ii->i', ((3, 3),)),
        ('ij->', ((2, 3),)),
        ('i,j->ij', ((2,), (3,))),
        ('bij,bjk->bik', ((2, 2, 3), (2, 3, 2))),
        ('iij,jk->ki', ((3, 3, 2), (2, 4))),
        ('ij,jk,kl->il', ((2, 3), (3, 2), (2, 3)))):
    case('einsum-' + _sub, tuple(Floats(s) for s in _shapes),
         lambda *xs, s=_sub: F.einsum(s, *xs),
         lambda *xs, s=_sub: _einsum_ref(s, *xs),
         fwd={f16: dict(atol=3e-3)})
case('einsum-ellipsis', (Floats((2, 2, 3)), Floats((2, 3, 2))),
     lambda a, b: F.einsum('...ij,...jk->...ik', a, b),
     lambda a, b: _einsum_ref('bij,bjk->bik', a, b),
     fwd={f16: dict(atol=3e-3)})
case('einsum-implicit', (Floats((2, 3)), Floats((3, 4))),
     lambda a, b: F.einsum('ij,jk', a, b),
     lambda a, b: _einsum_ref('ij,jk->ik', a, b),
     fwd={f16: dict(atol=3e-3)})

for _id, _a, _b, _axes, _sub in (
        ('int2', (4, 3, 2), (3, 2, 2), 2, 'ajk,jkb->ab'),
        ('int0', (2, 3), (2,), 0, 'ab,c->abc'),
        ('pairs', (2, 3, 4), (4, 3, 2), ((1, 2), (1, 0)), 'aij,jib->ab'),
        ('neg-axes', (3, 2), (2, 3), ([-1], [0]), 'ai,ib->ab')):
    case('tensordot-' + _id, (Floats(_a), Floats(_b)),
         lambda a, b, ax=_axes: F.tensordot(a, b, axes=ax),
         lambda a, b, s=_sub: _einsum_ref(s, a, b),
         fwd={f16: dict(atol=3e-3)})


# sparse_matmul: the entries of a COO matrix (positions fixed, with a
# repeated position and padding) times a dense operand, either side.
_ROW = numpy.array([0, 2, 1, 2, 0, -1], dtype=numpy.int32)
_COL = numpy.array([1, 0, 3, 0, 2, -1], dtype=numpy.int32)


def _coo_dense_ref(data, row, col, shape):
    dense = numpy.zeros(shape)
    for v, r, c in zip(data, row, col):
        if r >= 0:
            dense[r, c] += v
    return dense


def _coo(data, row, col):
    from chainer_core.utils.sparse import CooMatrix
    coo = CooMatrix(data.array, row, col, (3, 4))
    coo.data = data
    return coo


case('sparse_matmul-sparse-dense', (Floats((6,)), Floats((4, 2))),
     lambda d, b, row, col: F.sparse_matmul(_coo(d, row, col), b),
     lambda d, b, row, col: _matmul_ref(
         _coo_dense_ref(d, row, col, (3, 4)), b),
     consts=dict(row=Fixed(_ROW), col=Fixed(_COL)),
     fwd={f16: dict(atol=3e-3)})
case('sparse_matmul-dense-sparse-trans', (Floats((2, 4)), Floats((6,))),
     lambda a, d, row, col: F.sparse_matmul(a, _coo(d, row, col),
                                            transb=True),
     lambda a, d, row, col: _matmul_ref(
         a, _coo_dense_ref(d, row, col, (3, 4)), transb=True),
     consts=dict(row=Fixed(_ROW), col=Fixed(_COL)),
     fwd={f16: dict(atol=3e-3)})
case('sparse_matmul-batched', (Floats((2, 6)), Floats((2, 3, 2))),
     lambda d, b, row, col: F.sparse_matmul(_coo(d, row, col), b,
                                            transa=True),
     lambda d, b, row, col: numpy.stack([_matmul_ref(
         _coo_dense_ref(d[i], row[i], col[i], (3, 4)), b[i], transa=True)
         for i in range(2)]),
     consts=dict(row=Fixed(numpy.stack([_ROW, _ROW[::-1]])),
                 col=Fixed(numpy.stack([_COL, _COL[::-1]]))),
     fwd={f16: dict(atol=3e-3)})


# -- special functions of the normal distribution and relatives

def _ndtr_ref(x):
    import math
    return _elementwise(lambda v: 0.5 * math.erfc(-v / math.sqrt(2)))(x)


def _bisect(fn, low, high, increasing=True):
    """The inverse of the monotonic scalar function fn by bisection."""
    def one(v):
        lo, hi = low, high
        for _ in range(200):
            mid = (lo + hi) / 2
            if (fn(mid) < v) == increasing:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2
    return _elementwise(one)


def _hurwitz_ref(s, q):
    """sum_k (q + k)^-s: 2000 terms, the tail by Euler-Maclaurin."""
    def one(a, b):
        k = numpy.arange(2000)
        w = b + 2000.0
        return (((b + k) ** -a).sum() + w ** (1 - a) / (a - 1) +
                w ** -a / 2 + a * w ** (-a - 1) / 12)
    return numpy.vectorize(one, otypes=[numpy.float64])(s, q)


case('arctanh', (Floats((3, 4), -0.8, 0.8),), F.arctanh,
     lambda x: 0.5 * numpy.log((1 + x) / (1 - x)))
case('ndtr', (Floats((3, 4), -3.0, 3.0),), F.ndtr, _ndtr_ref)
case('log_ndtr', (Floats((3, 4), -4.0, 3.0),), F.log_ndtr,
     lambda x: numpy.log(_ndtr_ref(x)), fwd={f16: dict(atol=3e-3)})
case('ndtri', (Floats((3, 4), 0.05, 0.95),), F.ndtri,
     _bisect(lambda v: 0.5 * __import__('math').erfc(
         -v / __import__('math').sqrt(2)), -10.0, 10.0),
     fwd={f16: dict(atol=5e-3)}, bwd={f16: dict(atol=2e-2, rtol=2e-2)},
     dbl={f16: dict(atol=5e-2, rtol=5e-2)})
case('erfcinv', (Floats((3, 4), 0.1, 1.9),), F.erfcinv,
     _bisect(__import__('math').erfc, -6.0, 6.0, increasing=False),
     fwd={f16: dict(atol=3e-3)}, bwd={f16: dict(atol=1e-2, rtol=2e-2)},
     dbl={f16: dict(atol=5e-2, rtol=5e-2)})
case('erfcx', (Floats((3, 4), -1.0, 3.0),), F.erfcx,
     _elementwise(lambda v: __import__('math').exp(v * v) *
                  __import__('math').erfc(v)),
     fwd={f16: dict(atol=5e-3)})
case('zeta', (Floats((3, 4), 0.5, 2.0),),
     lambda q, s: F.zeta(s, q), lambda q, s: _hurwitz_ref(s, q),
     consts={'s': Fixed(numpy.linspace(2.0, 4.0, 12).reshape(3, 4),
                        dtype=numpy.float64)},
     fwd={f16: dict(rtol=4e-3)}, bwd={f16: dict(atol=5e-2, rtol=2e-2)},
     dbl={f16: dict(atol=2e-1, rtol=5e-2)})
case('zeta-bcast', (Floats((2, 1), 1.0, 2.0),),
     lambda q, s: F.zeta(s, q), lambda q, s: _hurwitz_ref(s, q),
     consts={'s': Fixed([2.5, 3.0, 5.0], dtype=numpy.float64)},
     fwd={f16: dict(rtol=4e-3)}, bwd={f16: dict(atol=5e-2, rtol=2e-2)},
     dbl={f16: dict(atol=2e-1, rtol=5e-2)})


# -- other linear algebra and transforms

def _dft(real, imag, inverse):
    """The DFT along the last axis by its matrix."""
    n = real.shape[-1]
    k = numpy.arange(n)
    sign = 1 if inverse else -1
    m = numpy.exp(sign * 2j * numpy.pi * numpy.outer(k, k) / n)
    y = (real + 1j * imag) @ m.T
    return y / n if inverse else y


for _name, _inverse in (('fft', False), ('ifft', True)):
    for _shape in ((5,), (2, 3, 4)):
        case('{}-{}d'.format(_name, len(_shape)),
             (Floats(_shape), Floats(_shape)),
             lambda r, i, f=getattr(F, _name): F.concat(f((r, i)), axis=-1),
             lambda r, i, inv=_inverse: numpy.concatenate(
                 [_dft(r, i, inv).real, _dft(r, i, inv).imag], axis=-1),
             fwd={f16: dict(atol=5e-3)})

case('batch_l2_norm_squared', (Floats((3, 2, 4)),), F.batch_l2_norm_squared,
     lambda x: _add_over(x * x, (1, 2)), fwd={f16: dict(atol=5e-3)})
case('batch_l2_norm_squared-2d', (Floats((4, 5)),), F.batch_l2_norm_squared,
     lambda x: _add_over(x * x, (1,)), fwd={f16: dict(atol=5e-3)})


def _cholesky_ref(a):
    """The Cholesky-Banachiewicz recurrence, row by row."""
    n = a.shape[0]
    L = numpy.zeros_like(a)
    for i in range(n):
        for j in range(i + 1):
            s = a[i, j] - sum(L[i, k] * L[j, k] for k in range(j))
            L[i, j] = numpy.sqrt(s) if i == j else s / L[j, j]
    return L


# The matrix is made symmetric inside the call, so that the numerical
# gradient perturbs both triangles alike.
case('cholesky', (WellConditioned((3, 3)),),
     lambda a: F.cholesky((a + F.transpose(a)) * 0.5),
     lambda a: _cholesky_ref((a + a.T) / 2),
     fwd={f16: dict(atol=3e-3)}, bwd={f16: dict(atol=2e-2, rtol=2e-2)},
     dbl={f16: dict(atol=1e-1, rtol=5e-2)})

case('mean-weights', (Floats((3, 4)), Floats((4,), 0.5, 1.5)),
     lambda x, w: F.mean(x, axis=1, weights=w),
     lambda x, w: (x * w).sum(axis=1) / w.sum())
