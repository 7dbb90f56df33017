"""Bad input of math ops.

Operands of different float dtypes are refused only when both are
Variables: an array operand is cast to the variable's dtype, as in Chainer.
"""
import chainer_core.functions as F
from chainer_core import Variable as V

from . import bad, i32, f64, ADD, SUB, MUL, DIV, POW, BINARY_ARGS, AXIS, _op

bad('add-not-broadcastable',
        lambda m: F.add(m((3, 4)), m((2, 4))), ADD, BINARY_ARGS)
bad('add-dtype-mismatch',
        lambda m: F.add(V(m((3, 4))), V(m((3, 4), f64))), ADD, BINARY_ARGS)
bad('sub-not-broadcastable',
        lambda m: F.sub(m((3, 4)), m((3,))), SUB, BINARY_ARGS)
bad('sub-dtype-mismatch',
        lambda m: F.sub(V(m((3, 4), f64)), V(m((3, 4)))), SUB, BINARY_ARGS)
bad('mul-not-broadcastable',
        lambda m: F.mul(m((2, 3, 4)), m((3, 2))), MUL, BINARY_ARGS)
bad('mul-dtype-mismatch',
        lambda m: F.mul(V(m((3, 4))), V(m((3, 4), f64))), MUL, BINARY_ARGS)
bad('div-not-broadcastable',
        lambda m: F.div(m((4,)), m((5,))), DIV, BINARY_ARGS)
bad('div-dtype-mismatch',
        lambda m: F.div(V(m((3, 4))), V(m((4,), f64))), DIV, BINARY_ARGS)
bad('pow-not-broadcastable',
        lambda m: F.pow(m((3, 4)), m((2, 4))), POW, BINARY_ARGS)
bad('pow-dtype-mismatch',
        lambda m: F.pow(V(m((3, 4))), V(m((3, 4), f64))), POW, BINARY_ARGS)
bad('add-unsupported-operand',
        lambda m: F.add(m((3, 4)), 'one'), ADD, ('operand',))
bad('exp-int', lambda m: F.exp(m((3,), i32)), _op('Exp', 'exp'), ('x',))
bad('log-int', lambda m: F.log(m((3,), i32)), _op('Log', 'log'), ('x',))
bad('sum-axis-out-of-range',
        lambda m: F.sum(m((2, 3, 4)), axis=3), _op('Sum', 'sum'), AXIS)
bad('sum-negative-axis-out-of-range',
        lambda m: F.sum(m((2, 3, 4)), axis=(0, -4)), _op('Sum', 'sum'), AXIS)
bad('sum-duplicate-axis',
        lambda m: F.sum(m((2, 3, 4)), axis=(1, -2)), _op('Sum', 'sum'), AXIS)
bad('sum-axis-not-int',
        lambda m: F.sum(m((2, 3)), axis=1.0), _op('Sum', 'sum'), AXIS)
bad('sum-int', lambda m: F.sum(m((2, 3), i32)), _op('Sum', 'sum'),
        ('x',))
bad('sum_to-not-broadcast-from',
        lambda m: F.sum_to(m((2, 3)), (4,)), _op('SumTo', 'sum_to'),
        ('x', 'shape'))
bad('matmul-inner-dims',
        lambda m: F.matmul(m((3, 4)), m((5, 2))), _op('MatMul', 'matmul'),
        ('a', 'b'))
bad('matmul-inner-dims-transb',
        lambda m: F.matmul(m((3, 4)), m((4, 2)), transb=True),
        _op('MatMul', 'matmul'), ('a', 'b'))
bad('matmul-batch-not-broadcastable',
        lambda m: F.matmul(m((2, 3, 4)), m((3, 4, 2))),
        _op('MatMul', 'matmul'), ('a', 'b'))
bad('matmul-int',
        lambda m: F.matmul(m((3, 4), i32), m((4, 2), i32)),
        _op('MatMul', 'matmul'), ('a',))
bad('matmul-b-int',
        lambda m: F.matmul(m((3, 4)), m((4, 2), i32)),
        _op('MatMul', 'matmul'), ('a', 'b'))
bad('matmul-0dim',
        lambda m: F.matmul(m(()), m((4, 2))), _op('MatMul', 'matmul'),
        ('a',))


# -- elementwise: integer input

for _label, _name, _fn in (
        ('Log1p', 'log1p', F.log1p), ('Log2', 'log2', F.log2),
        ('Log10', 'log10', F.log10), ('Expm1', 'expm1', F.expm1),
        ('Sqrt', 'sqrt', F.sqrt), ('Rsqrt', 'rsqrt', F.rsqrt),
        ('Square', 'square', F.square),
        ('|_|', 'absolute', F.absolute), ('Sin', 'sin', F.sin),
        ('Cos', 'cos', F.cos), ('Tan', 'tan', F.tan),
        ('Arcsin', 'arcsin', F.arcsin), ('Arccos', 'arccos', F.arccos),
        ('Arctan', 'arctan', F.arctan), ('Sinh', 'sinh', F.sinh),
        ('Cosh', 'cosh', F.cosh), ('Erf', 'erf', F.erf),
        ('Erfc', 'erfc', F.erfc), ('ErfInv', 'erfinv', F.erfinv),
        ('LGamma', 'lgamma', F.lgamma), ('DiGamma', 'digamma', F.digamma),
        ('Cumsum', 'cumsum', F.cumsum), ('Cumprod', 'cumprod', F.cumprod),
        ('Prod', 'prod', F.prod), ('Mean', 'mean', F.mean),
        ('Max', 'max', F.max), ('Min', 'min', F.min),
        ('ArgMax', 'argmax', F.argmax), ('ArgMin', 'argmin', F.argmin),
        ('LogSumExp', 'logsumexp', F.logsumexp)):
    bad('{}-int'.format(_name), lambda m, f=_fn: f(m((3, 4), i32)),
        _op(_label, _name), ('x',))
bad('clip-int', lambda m: F.clip(m((3,), i32), -1.0, 1.0),
    _op('Clip', 'clip'), ('x',))
bad('polygamma-float-n',
    lambda m: F.polygamma(m((3,)), m((3,))), _op('PolyGamma', 'polygamma'),
    ('n',))
bad('polygamma-int-x',
    lambda m: F.polygamma(1, m((3,), i32)), _op('PolyGamma', 'polygamma'),
    ('x',))
bad('floor-not-an-array',
    lambda m: F.floor([1.5, 2.5]), _op('floor'), ('x',))
bad('sign-not-an-array',
    lambda m: F.sign('x'), _op('sign'), ('x',))

# -- elementwise with two or three operands

for _label, _name, _fn, _args in (
        ('Arctan2', 'arctan2', F.arctan2, ('x1', 'x2')),
        ('Fmod', 'fmod', F.fmod, ('x', 'divisor')),
        ('Maximum', 'maximum', F.maximum, ('x1', 'x2')),
        ('Minimum', 'minimum', F.minimum, ('x1', 'x2')),
        ('SquaredDifference', 'squared_difference', F.squared_difference,
         ('x1', 'x2'))):
    bad('{}-not-broadcastable'.format(_name),
        lambda m, f=_fn: f(m((3, 4)), m((2, 4))), _op(_label, _name), _args)
    bad('{}-dtype-mismatch'.format(_name),
        lambda m, f=_fn: f(m((3, 4)), m((3, 4), f64)), _op(_label, _name),
        _args)
    bad('{}-int'.format(_name),
        lambda m, f=_fn: f(m((3,), i32), m((3,), i32)), _op(_label, _name),
        _args[:1])
bad('linear_interpolate-shape',
    lambda m: F.linear_interpolate(m((3, 4)), m((3, 4)), m((4,))),
    _op('LinearInterpolate', 'linear_interpolate'), ('p', 'y'))
bad('linear_interpolate-dtype',
    lambda m: F.linear_interpolate(m((3,)), m((3,), f64), m((3,))),
    _op('LinearInterpolate', 'linear_interpolate'), ('p', 'x'))

# -- parameters

bad('clip-min-not-below-max',
    lambda m: F.clip(m((3,)), 1.0, 1.0), _op('Clip', 'clip'), ('x_min',))
bad('clip-no-bounds',
    lambda m: F.clip(m((3,)), None, None), _op('Clip', 'clip'),
    ('x_min', 'x_max'))
bad('clip-bound-not-a-number',
    lambda m: F.clip(m((3,)), '0', 1.0), _op('Clip', 'clip'), ('x_min',))
for _label, _name, _fn in (('Mean', 'mean', F.mean), ('Max', 'max', F.max),
                           ('Min', 'min', F.min), ('Prod', 'prod', F.prod),
                           ('LogSumExp', 'logsumexp', F.logsumexp)):
    bad('{}-axis-out-of-range'.format(_name),
        lambda m, f=_fn: f(m((2, 3)), axis=2), _op(_label, _name), AXIS)
    bad('{}-negative-axis-out-of-range'.format(_name),
        lambda m, f=_fn: f(m((2, 3)), axis=(0, -3)), _op(_label, _name),
        AXIS)
    bad('{}-duplicate-axis'.format(_name),
        lambda m, f=_fn: f(m((2, 3)), axis=(1, -1)), _op(_label, _name),
        AXIS)
    bad('{}-axis-not-int'.format(_name),
        lambda m, f=_fn: f(m((2, 3)), axis=0.5), _op(_label, _name), AXIS)
for _label, _name, _fn in (('ArgMax', 'argmax', F.argmax),
                           ('ArgMin', 'argmin', F.argmin),
                           ('Cumsum', 'cumsum', F.cumsum),
                           ('Cumprod', 'cumprod', F.cumprod)):
    bad('{}-axis-out-of-range'.format(_name),
        lambda m, f=_fn: f(m((2, 3)), axis=-3), _op(_label, _name), AXIS)
    bad('{}-axis-tuple'.format(_name),
        lambda m, f=_fn: f(m((2, 3)), axis=(0, 1)), _op(_label, _name),
        AXIS)
bad('average-weights-shape',
    lambda m: F.average(m((3, 4)), axis=1, weights=m((3,))),
    _op('average'), ('weights',))
bad('average-weights-shape-all',
    lambda m: F.average(m((3, 4)), weights=m((4,))), _op('average'),
    ('weights',))
bad('average-weights-dtype',
    lambda m: F.average(m((3, 4)), axis=1, weights=m((4,), f64)),
    _op('average'), ('weights',))
bad('average-weights-two-axes',
    lambda m: F.average(m((3, 4)), axis=(0, 1), weights=m((3, 4))),
    _op('average'), AXIS)
bad('bias-shape',
    lambda m: F.bias(m((2, 3, 4)), m((4,)), axis=1), _op('bias'),
    ('y', 'axis'))
bad('scale-axis-too-far',
    lambda m: F.scale(m((2, 3)), m((3, 2)), axis=1), _op('scale'),
    ('y', 'axis'))
bad('bias-dtype',
    lambda m: F.bias(V(m((2, 3))), V(m((3,), f64))), _op('_ + _', 'bias'),
    BINARY_ARGS)

# -- linear algebra


def _batch_matmul(*args):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        return F.batch_matmul(*args)


bad('batch_matmul-1d',
    lambda m: _batch_matmul(m((3,)), m((3, 2))),
    _op('batch_matmul'), ('a',))
bad('batch_matmul-batch-sizes',
    lambda m: _batch_matmul(m((2, 3, 4)), m((3, 4, 2))),
    _op('batch_matmul'), ('a', 'b'))
bad('batch_matmul-inner-dims',
    lambda m: _batch_matmul(m((2, 3, 4)), m((2, 3, 2))),
    _op('MatMul', 'batch_matmul'), ('a', 'b'))
bad('det-not-square',
    lambda m: F.det(m((3, 4))), _op('BatchDet', 'det'), ('a',))
bad('det-3d', lambda m: F.det(m((2, 3, 3))), _op('det'), ('a',))
bad('det-int', lambda m: F.det(m((3, 3), i32)), _op('BatchDet', 'det'),
    ('a',))
bad('batch_det-2d', lambda m: F.batch_det(m((3, 3))),
    _op('BatchDet', 'batch_det'), ('a',))
bad('inv-not-square', lambda m: F.inv(m((3, 4))), _op('Inv', 'inv'),
    ('a',))
bad('inv-3d', lambda m: F.inv(m((2, 3, 3))), _op('Inv', 'inv'), ('a',))
bad('inv-int', lambda m: F.inv(m((3, 3), i32)), _op('Inv', 'inv'), ('a',))
bad('inv-singular', lambda m: F.inv(m((3, 3)) * 0),
    _op('Inv', 'inv'), ('singular',))
bad('batch_inv-2d', lambda m: F.batch_inv(m((3, 3))),
    _op('BatchInv', 'batch_inv'), ('a',))
bad('einsum-size-mismatch',
    lambda m: F.einsum('ij,jk->ik', m((2, 3)), m((4, 2))),
    _op('EinSum', 'einsum'), ('x0', 'x1'))
bad('einsum-int',
    lambda m: F.einsum('ij->ji', m((2, 3), i32)), _op('EinSum', 'einsum'),
    ('x0',))
bad('einsum-too-few-subscripts',
    lambda m: F.einsum('ij', m((2, 3)), m((3,))), _op('einsum'),
    ('subscripts',))
bad('einsum-wrong-ndim',
    lambda m: F.einsum('ijk->i', m((2, 3))), _op('einsum'), ('x0',))
bad('einsum-unknown-output-label',
    lambda m: F.einsum('ij->k', m((2, 3))), _op('einsum'), ('label',))
bad('einsum-bad-character',
    lambda m: F.einsum('i$->i', m((2, 3))), _op('einsum'), ('subscripts',))
bad('einsum-ellipsis-shapes',
    lambda m: F.einsum('...i,...i->...', m((2, 3)), m((4, 3))),
    _op('einsum'), ('x1',))
bad('tensordot-shape-mismatch',
    lambda m: F.tensordot(m((2, 3)), m((4, 2)), axes=1),
    _op('TensorDot', 'tensordot'), ('a', 'b'))
bad('tensordot-too-many-axes',
    lambda m: F.tensordot(m((2, 3)), m((3,)), axes=2), _op('tensordot'),
    ('axes',))
bad('tensordot-axes-lengths',
    lambda m: F.tensordot(m((2, 3)), m((3, 2)), axes=([1], [0, 1])),
    _op('tensordot'), ('axes',))
bad('tensordot-axis-out-of-range',
    lambda m: F.tensordot(m((2, 3)), m((3, 2)), axes=([2], [0])),
    _op('tensordot'), ('axis',))
bad('tensordot-int',
    lambda m: F.tensordot(m((2, 3), i32), m((3, 2)), axes=1),
    _op('TensorDot', 'tensordot'), ('a',))


def _coo(m, shape=(3, 4)):
    from chainer_core.utils.sparse import to_coo
    dense = m(shape)
    return to_coo(dense)


bad('sparse_matmul-two-dense',
    lambda m: F.sparse_matmul(m((3, 4)), m((4, 2))),
    _op('sparse_matmul'), ('operand', 'CooMatrix'))
bad('sparse_matmul-inner-dims',
    lambda m: F.sparse_matmul(_coo(m), m((3, 2))),
    _op('CooMatMul', 'sparse_matmul'), ('dn',))
bad('sparse_matmul-batched-with-2d',
    lambda m: F.sparse_matmul(_coo(m, (2, 3, 4)), m((4, 2))),
    _op('CooMatMul', 'sparse_matmul'), ('sp', 'dn'))
bad('sparse_matmul-int-dense',
    lambda m: F.sparse_matmul(_coo(m), m((4, 2), i32)),
    _op('CooMatMul', 'sparse_matmul'), ('dn',))

for _name in ('arctanh', 'erfcinv', 'erfcx', 'ndtr', 'log_ndtr', 'ndtri'):
    _label = {'arctanh': 'Arctanh', 'erfcinv': 'ErfcInv', 'erfcx': 'Erfcx',
              'ndtr': 'Ndtr', 'log_ndtr': 'LogNdtr', 'ndtri': 'Ndtri'}[_name]
    bad(_name + '-int', lambda m, f=getattr(F, _name): f(m((3,), i32)),
        _op(_label, _name), ('x',))
bad('zeta-q-int', lambda m: F.zeta(m((3,)), m((3,), i32)),
    _op('Zeta', 'zeta'), ('q',))
bad('zeta-not-broadcastable', lambda m: F.zeta(m((2,)), m((3,))),
    _op('Zeta', 'zeta'), ('x', 'q'))
bad('fft-shape-mismatch', lambda m: F.fft((m((2, 4)), m((2, 3)))),
    _op('fft', 'FFT'), ('real', 'imag'))
bad('fft-dtype-mismatch', lambda m: F.fft((m((2, 4)), m((2, 4), f64))),
    _op('fft', 'FFT'), ('real', 'imag'))
bad('ifft-not-a-pair', lambda m: F.ifft(m((2, 4))),
    _op('ifft', 'FFT'), ('x',))
bad('batch_l2_norm_squared-1d', lambda m: F.batch_l2_norm_squared(m((3,))),
    _op('BatchL2NormSquared', 'batch_l2_norm_squared'), ('x',))
bad('cholesky-not-square', lambda m: F.cholesky(m((2, 3))),
    _op('cholesky', 'Cholesky'), ('a',))
bad('cholesky-3d', lambda m: F.cholesky(m((2, 2, 2))),
    _op('cholesky', 'Cholesky'), ('a',))
bad('mean-weights-shape', lambda m: F.mean(m((3, 4)), 1, m((3,))),
    _op('mean', 'average'), ('weights',))
