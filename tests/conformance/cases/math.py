"""Cases of arithmetic, reductions and matmul."""
import numpy

import chainer_core.functions as F

from . import Floats, Signed, case, f16

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


