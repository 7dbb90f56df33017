"""Bad input of normalization functions."""
import chainer_core.functions as F

from . import AXIS, bad, f64, i32, _op

BN = _op('BatchNormalization', 'batch_normalization')
FBN = _op('FixedBatchNormalization', 'fixed_batch_normalization')
BRN = _op('BatchRenormalization', 'batch_renormalization')
LN = _op('LayerNormalization', 'layer_normalization')
GN = _op('GroupNormalization', 'group_normalization')
LRN = _op('LocalResponseNormalization', 'local_response_normalization')
L2 = _op('NormalizeL2', 'normalize')
DBN = _op('DecorrelatedBatchNormalization',
          'decorrelated_batch_normalization')
FDBN = _op('FixedDecorrelatedBatchNormalization',
           'fixed_decorrelated_batch_normalization')


def _bn(m, x=(4, 3), g=(3,), b=(3,), x_dtype=None, b_dtype=None, **kw):
    return F.batch_normalization(
        m(x, x_dtype) if x_dtype else m(x), m(g),
        m(b, b_dtype) if b_dtype else m(b), **kw)


bad('batch_normalization-int', lambda m: _bn(m, x_dtype=i32), BN, ('x',))
bad('batch_normalization-gamma-shape', lambda m: _bn(m, g=(4,), b=(4,)),
    BN, ('gamma',))
bad('batch_normalization-beta-shape', lambda m: _bn(m, b=(2,)), BN,
    ('beta',))
bad('batch_normalization-beta-dtype', lambda m: _bn(m, b_dtype=f64), BN,
    ('beta',))
bad('batch_normalization-x-ndim', lambda m: _bn(m, x=(3,)), BN, ('x',))
bad('batch_normalization-axis-type', lambda m: _bn(m, axis=1.5), BN, AXIS)
bad('batch_normalization-axis-out-of-range',
    lambda m: _bn(m, x=(3, 4), axis=(0, 2), g=(), b=()), BN, AXIS)
bad('batch_normalization-axis-order',
    lambda m: _bn(m, x=(3, 4, 2), g=(4,), b=(4,), axis=(2, 0)), BN, AXIS)
bad('batch_normalization-axis-gamma-shape',
    lambda m: _bn(m, x=(3, 4, 2), g=(4,), b=(4,), axis=2), BN, ('gamma',))
bad('batch_normalization-eps', lambda m: _bn(m, eps=-1.0), BN, ('eps',))
bad('batch_normalization-decay', lambda m: _bn(m, decay=1.5), BN,
    ('decay',))
bad('batch_normalization-running-mean-shape',
    lambda m: _bn(m, running_mean=m((4,)), running_var=m((3,))), BN,
    ('running_mean',))
bad('batch_normalization-running-var-alone',
    lambda m: _bn(m, running_var=m((3,))), BN, ('running_var',))
bad('batch_normalization-train', lambda m: _bn(m, train=True), BN,
    ('train',))


def _fbn(m, mean=(3,), var=(3,), mean_dtype=None):
    return F.fixed_batch_normalization(
        m((4, 3)), m((3,)), m((3,)),
        m(mean, mean_dtype) if mean_dtype else m(mean), m(var))


bad('fixed_batch_normalization-var-shape', lambda m: _fbn(m, var=(4,)),
    FBN, ('var',))
bad('fixed_batch_normalization-mean-dtype',
    lambda m: _fbn(m, mean_dtype=f64), FBN, ('mean',))
bad('fixed_batch_normalization-axis', lambda m: F.fixed_batch_normalization(
    m((4, 3)), m((3,)), m((3,)), m((3,)), m((3,)), axis='0'), FBN, AXIS)


def _brn(m, g=(3,), **kw):
    args = dict(running_mean=m((3,)), running_var=m((3,)) + 2)
    args.update(kw)
    return F.batch_renormalization(m((4, 3)), m(g), m(g), 2.0, 1.0, **args)


bad('batch_renormalization-gamma-shape', lambda m: _brn(m, g=(4,)), BRN,
    ('gamma',))
bad('batch_renormalization-no-running-mean',
    lambda m: _brn(m, running_mean=None), BRN, ('running_mean',))
bad('batch_renormalization-running-var-shape',
    lambda m: _brn(m, running_var=m((2,))), BRN, ('running_var',))
bad('batch_renormalization-rmax', lambda m: F.batch_renormalization(
    m((4, 3)), m((3,)), m((3,)), 0.5, 1.0, running_mean=m((3,)),
    running_var=m((3,))), BRN, ('rmax',))

bad('layer_normalization-x-ndim', lambda m: F.layer_normalization(
    m((2, 3, 4)), m((4,)), m((4,))), LN, ('x',))
bad('layer_normalization-gamma-shape', lambda m: F.layer_normalization(
    m((3, 4)), m((3,)), m((3,))), LN, ('gamma',))
bad('layer_normalization-beta-dtype', lambda m: F.layer_normalization(
    m((3, 4)), m((4,)), m((4,), f64)), LN, ('beta',))

bad('group_normalization-groups-divisor', lambda m: F.group_normalization(
    m((2, 4, 3)), 3, m((4,)), m((4,))), GN, ('groups',))
bad('group_normalization-groups-type', lambda m: F.group_normalization(
    m((2, 4, 3)), 2.0, m((4,)), m((4,))), GN, ('groups',))
bad('group_normalization-gamma-shape', lambda m: F.group_normalization(
    m((2, 4, 3)), 2, m((3,)), m((3,))), GN, ('gamma',))
bad('group_normalization-int', lambda m: F.group_normalization(
    m((2, 4, 3), i32), 2, m((4,)), m((4,))), GN, ('x',))

bad('local_response_normalization-x-ndim',
    lambda m: F.local_response_normalization(m((5,))), LRN, ('x',))
bad('local_response_normalization-int',
    lambda m: F.local_response_normalization(m((2, 5), i32)), LRN, ('x',))
bad('local_response_normalization-n',
    lambda m: F.local_response_normalization(m((2, 5)), n=0), LRN, ('n',))
bad('local_response_normalization-n-type',
    lambda m: F.local_response_normalization(m((2, 5)), n=2.5), LRN, ('n',))

bad('normalize-int', lambda m: F.normalize(m((3, 4), i32)), L2, ('x',))
bad('normalize-axis-out-of-range', lambda m: F.normalize(m((3, 4)), axis=2),
    L2, AXIS)
bad('normalize-axis-type', lambda m: F.normalize(m((3, 4)), axis=None), L2,
    AXIS)
bad('normalize-axis-repeated',
    lambda m: F.normalize(m((3, 4)), axis=(1, -1)), L2, AXIS)
bad('normalize-eps', lambda m: F.normalize(m((3, 4)), eps=-1), L2, ('eps',))

bad('decorrelated_batch_normalization-groups',
    lambda m: F.decorrelated_batch_normalization(m((4, 6)), groups=4), DBN,
    ('groups',))
bad('decorrelated_batch_normalization-x-ndim',
    lambda m: F.decorrelated_batch_normalization(m((4,)), groups=1), DBN,
    ('x',))
bad('decorrelated_batch_normalization-running-mean-shape',
    lambda m: F.decorrelated_batch_normalization(
        m((4, 6)), groups=2, running_mean=m((6,))), DBN, ('running_mean',))
bad('decorrelated_batch_normalization-kwarg',
    lambda m: F.decorrelated_batch_normalization(m((4, 6)), group=2), DBN,
    ('group',))

bad('fixed_decorrelated_batch_normalization-projection-shape',
    lambda m: F.fixed_decorrelated_batch_normalization(
        m((3, 4)), m((2, 2)), m((2, 2, 3)), groups=2), FDBN, ('projection',))
bad('fixed_decorrelated_batch_normalization-mean-shape',
    lambda m: F.fixed_decorrelated_batch_normalization(
        m((3, 4)), m((1, 4)), m((2, 2, 2)), groups=2), FDBN, ('mean',))
bad('fixed_decorrelated_batch_normalization-mean-dtype',
    lambda m: F.fixed_decorrelated_batch_normalization(
        m((3, 4)), m((2, 2), f64), m((2, 2, 2)), groups=2), FDBN, ('mean',))

bad('fixed_batch_renormalization-gamma-shape',
    lambda m: F.fixed_batch_renormalization(
        m((2, 3, 4)), m((4,)), m((3,)), m((3,)), m((3,))),
    ('FixedBatchNormalization', 'fixed_batch_normalization',
     'fixed_batch_renormalization'), ('gamma',))
