"""The fuzzed ops: how to call each one and how to draw a random case of it.

A generator takes a :class:`~.cases.Draw` and returns a :class:`Spec`: the
inputs' shapes and values, the keyword arguments of the call, and the
number of terms an output or gradient element accumulates at most.
"""
import collections
import operator
import zlib

import numpy

import chainer_core
import chainer_core.functions as F

from .cases import Case, Draw, lay_out

Spec = collections.namedtuple('Spec', 'args params terms')
Spec.__new__.__defaults__ = ({}, 1)
Op = collections.namedtuple('Op', 'call gen')

DTYPES = ('float16', 'float32', 'float64')


def _size(shape):
    return int(numpy.prod(shape, dtype=numpy.int64))


def _valid(axis, ndim):
    return -ndim <= axis < ndim


# -- elementwise

def _unary(fn, low=-1.0, high=1.0, params=lambda d: {}):
    def gen(d):
        return Spec([(d.shape(), d.floats(low, high))], params(d))
    return Op(fn, gen)


def _binary(op, lhs=('uniform', -1.0, 1.0), rhs=('uniform', -1.0, 1.0),
            scalars=(1.5, -0.5)):
    """An arithmetic operator on Variables, with broadcasting in either
    direction, or with a Python scalar on either side."""
    def call(*xs, scalar=None, reflected=False):
        if scalar is None:
            return op(*xs)
        return op(scalar, xs[0]) if reflected else op(xs[0], scalar)

    def gen(d):
        shape = d.shape()
        r = d.rng.uniform()
        if scalars and r < 0.15:
            return Spec([(shape, lhs)], {'scalar': d.pick(scalars)})
        if scalars and r < 0.3:
            return Spec([(shape, rhs)],
                        {'scalar': d.pick(scalars), 'reflected': True})
        other = d.broadcastable(shape)
        shapes = (shape, other) if d.chance(0.5) else (other, shape)
        # The gradient of the broadcast operand sums over the copies.
        return Spec(list(zip(shapes, (lhs, rhs))), {},
                    max(1, _size(shape)) // max(1, _size(other)))
    return Op(call, gen)


def _clip_gen(d):
    low, high = d.pick(((-0.5, 0.5), (0.0, 1.0), (-0.25, 0.75)))
    return Spec([(d.shape(), d.floats())], {'x_min': low, 'x_max': high})


# -- reductions

def _reduction(fn, values=('uniform', -1.0, 1.0), keepdims=True):
    def gen(d):
        shape = d.shape()
        axis = d.axes(len(shape))
        params = {'axis': axis}
        if keepdims:
            params['keepdims'] = d.chance(0.5)
        if axis is None:
            terms = _size(shape)
        else:
            axes = axis if isinstance(axis, tuple) else (axis,)
            terms = _size([shape[a] for a in axes
                           if _valid(a, len(shape))])
        drawn = d.floats(*values[1:]) if values[0] == 'uniform' else values
        return Spec([(shape, drawn)], params, terms)
    return Op(fn, gen)


def _softmax_gen(d):
    shape = d.shape(1)
    axis = d.axis(len(shape))
    # The gradient sums over the softmax axis.
    return Spec([(shape, d.floats(-3.0, 3.0))], {'axis': axis},
                shape[axis] if _valid(axis, len(shape)) else 1)


# -- array manipulation

def _reshape_gen(d):
    shape = d.shape()
    dims = [s for s in shape if s != 1]
    d.rng.shuffle(dims)
    merged = []
    for s in dims:
        if merged and d.chance(0.3):
            merged[-1] *= s
        else:
            merged.append(s)
    for _ in range(d.rng.randint(3)):
        merged.insert(d.rng.randint(len(merged) + 1), 1)
    if merged and 0 not in merged and d.chance(0.3):
        merged[d.rng.randint(len(merged))] = -1
    return Spec([(shape, d.floats())], {'shape': tuple(merged)})


def _transpose_gen(d):
    shape = d.shape()
    axes = None if d.chance(0.3) else tuple(
        int(a) for a in d.rng.permutation(len(shape)))
    return Spec([(shape, d.floats())], {'axes': axes})


def _concat_gen(d):
    shape = d.shape(1)
    axis = d.axis(len(shape))
    shapes = []
    for _ in range(d.rng.randint(1, 4)):
        s = list(shape)
        if _valid(axis, len(shape)):
            s[axis] = d.dim()
        shapes.append(tuple(s))
    return Spec([(s, d.floats()) for s in shapes], {'axis': axis})


def _split_gen(d):
    shape = d.shape(1)
    axis = d.axis(len(shape))
    length = shape[axis] if _valid(axis, len(shape)) else 1
    if d.chance(0.5):
        sections = [n for n in range(1, max(length, 1) + 1)
                    if length % n == 0]
        split = d.pick(sections)
    else:
        count = d.rng.randint(1, 4)
        split = sorted(int(i) for i in d.rng.randint(0, length + 2, count))
    return Spec([(shape, d.floats())],
                {'indices_or_sections': split, 'axis': axis})


def _stack_gen(d):
    shape = d.shape()
    count = d.rng.randint(1, 4)
    return Spec([(shape, d.floats())] * count,
                {'axis': d.axis(len(shape), extra=1)})


def _index(d, length):
    """One index of an axis of ``length``: an int, a slice with any bounds
    and steps (negative ones too), an integer list or a boolean mask."""
    r = d.rng.uniform()
    if r < 0.2 and length:
        return int(d.rng.randint(-length, length))
    if r < 0.3 and length:
        return [int(i) for i in d.rng.randint(-length, length,
                                              d.rng.randint(1, 4))]
    if r < 0.35:
        return [bool(b) for b in d.rng.uniform(size=length) < 0.5]
    bound = length + 2

    def end():
        return None if d.chance(0.3) else int(d.rng.randint(-bound, bound))
    return slice(end(), end(), d.pick((None, 1, 2, 3, -1, -2)))


def _get_item_gen(d):
    shape = d.shape(1)
    slices = [_index(d, s) for s in shape[:d.rng.randint(1, len(shape) + 1)]]
    # At most one list: several ones broadcast against each other, a
    # separate matter from the indexing itself.
    lists = [i for i, s in enumerate(slices) if isinstance(s, list)]
    for i in lists[1:]:
        slices[i] = slice(None)
    if d.chance(0.2):
        slices.insert(d.rng.randint(len(slices) + 1), None)
    if d.chance(0.2) and len(slices) < len(shape):
        slices.insert(0, Ellipsis)
    # Repeated list indices add their gradients up.
    terms = max([len(s) for s in slices if isinstance(s, list)] + [1])
    return Spec([(shape, d.floats())], {'slices': tuple(slices)}, terms)


def _broadcast_to_gen(d):
    shape = d.shape()
    other = d.broadcastable(shape)
    return Spec([(other, d.floats())], {'shape': shape},
                max(1, _size(shape)) // max(1, _size(other)))


def _expand_dims_gen(d):
    shape = d.shape()
    return Spec([(shape, d.floats())], {'axis': d.axis(len(shape), 1)})


def _squeeze_gen(d):
    shape = d.shape()
    ones = [a for a, s in enumerate(shape) if s == 1]
    if d.chance(0.3) or not shape:
        axis = None
    elif ones and d.chance(0.9):
        axis = tuple(int(a) for a in ones if d.chance(0.7)) or ones[0]
    else:
        axis = d.axis(len(shape))
    return Spec([(shape, d.floats())], {'axis': axis})


def _flip_gen(d):
    shape = d.shape(1)
    return Spec([(shape, d.floats())], {'axis': d.axis(len(shape))})


# -- linear algebra and convolutions

def _matmul_gen(d):
    if d.large:
        m, k, n = 316, 316, int(d.rng.randint(1, 9))
    else:
        m, k, n = d.dim(), d.dim(), d.dim()
    transa, transb = d.chance(0.3), d.chance(0.3)
    a = (k, m) if transa else (m, k)
    b = (n, k) if transb else (k, n)
    batch = ()
    if d.chance(0.3):
        batch = (d.dim(),)
        a, b = batch + a, (d.broadcastable(batch) if d.chance(0.5)
                           else batch) + b
        if d.chance(0.5):
            a, b = a[len(batch):], b
    return Spec([(a, d.floats()), (b, d.floats())],
                {'transa': transa, 'transb': transb},
                max(k, max(m, n) * max(_size(batch), 1), 1))


def _linear_gen(d):
    n_batch_axes = d.pick((1, 1, 2))
    batch = d.shape(n_batch_axes, n_batch_axes)
    if d.large:
        in_size, out_size = 64, 8
        batch = tuple(max(1, s // 64) for s in batch)
    else:
        in_size, out_size = d.dim(), d.dim()
    args = [(batch + (in_size,), d.floats()), ((out_size, in_size),
                                               d.floats())]
    if d.chance(0.7):
        args.append(((out_size,), d.floats()))
    return Spec(args, {'n_batch_axes': n_batch_axes},
                max(in_size, out_size, _size(batch), 1))


def _image(d, max_size=7):
    """``(N, C, H, W)``; the large case has about :data:`LARGE` elements."""
    if d.large:
        return (2, 4, 112, 112)
    return (d.dim(), d.dim(), int(d.rng.randint(1, max_size + 1)),
            int(d.rng.randint(1, max_size + 1)))


def _convolution_gen(d):
    n, c, h, w = _image(d)
    groups = d.pick((1, 1, 2))
    c = max(c, 1) * groups
    out = (d.dim() or 1) * groups
    kh, kw = int(d.rng.randint(1, 4)), int(d.rng.randint(1, 4))
    args = [((n, c, h, w), d.floats()),
            ((out, c // groups, kh, kw), d.floats())]
    if d.chance(0.6):
        args.append(((out,), d.floats()))
    params = {'stride': (int(d.rng.randint(1, 4)), int(d.rng.randint(1, 3))),
              'pad': (int(d.rng.randint(0, 3)), int(d.rng.randint(0, 2))),
              'cover_all': d.chance(0.3), 'dilate': d.pick((1, 1, 2)),
              'groups': groups}
    # The weight's gradient sums over every output position.
    return Spec(args, params, max(c * kh * kw, out * kh * kw, n * h * w, 1))


def _pooling_gen(average):
    def gen(d):
        shape = _image(d)
        ksize = int(d.rng.randint(1, 4))
        params = {'ksize': ksize,
                  'stride': d.pick((None, 1, 2, 3)),
                  'pad': int(d.rng.randint(0, ksize // 2 + 1))}
        if not average:
            params['cover_all'] = d.chance(0.5)
        return Spec([(shape, d.floats())], params, ksize * ksize)
    return gen


# -- normalization, noise, losses, selection

def _batch_normalization_gen(d):
    shape = d.shape(2, 4)
    channels = shape[1:2]
    if d.chance(0.3):
        channels = shape[1:]
    params = {'eps': d.pick((2e-5, 1e-3))}
    return Spec([(shape, d.floats()), (channels, d.floats(0.5, 1.5)),
                 (channels, d.floats())], params,
                max(1, _size(shape)) // max(1, _size(channels)))


def _dropout(x, ratio):
    with chainer_core.using_config('train', False):
        return F.dropout(x, ratio)


def _softmax_cross_entropy_gen(d):
    shape = d.shape(2, 3)
    n_class = shape[1]
    labels = shape[:1] + shape[2:]
    params = {'normalize': d.chance(0.5), 'reduce': d.pick(('mean', 'no'))}
    return Spec([(shape, d.floats(-3.0, 3.0)),
                 (labels, ('ints', -1, max(n_class, 1)))], params,
                max(n_class, _size(labels), 1))


def _mean_squared_error_gen(d):
    shape = d.shape()
    return Spec([(shape, d.floats()), (shape, d.floats())], {},
                max(_size(shape), 1))


def _where_gen(d):
    shape = d.shape()
    shapes = [shape, shape, shape]
    if d.chance(0.3):
        shapes[d.rng.randint(3)] = d.broadcastable(shape)
    return Spec([(shapes[0], ('mask',)), (shapes[1], d.floats()),
                 (shapes[2], d.floats())], {},
                max(1, _size(shape)))


OPS = {
    'relu': _unary(F.relu),
    'leaky_relu': _unary(F.leaky_relu, params=lambda d: {
        'slope': d.pick((0.0, 0.2, -0.5, 1.5))}),
    'elu': _unary(F.elu, -3.0, 3.0, lambda d: {
        'alpha': d.pick((1.0, 0.5, 2.0))}),
    'selu': _unary(F.selu, -3.0, 3.0),
    'sigmoid': _unary(F.sigmoid, -6.0, 6.0),
    'tanh': _unary(F.tanh, -3.0, 3.0),
    'softplus': _unary(F.softplus, -5.0, 5.0, lambda d: {
        'beta': d.pick((1.0, 2.0, 0.5))}),
    'hard_sigmoid': _unary(F.hard_sigmoid, -3.0, 3.0),
    'clipped_relu': _unary(F.clipped_relu, -1.0, 2.0, lambda d: {
        'z': d.pick((0.5, 1.0, 20.0))}),
    'exp': _unary(F.exp, -3.0, 3.0),
    'log': _unary(F.log, 0.05, 3.0),
    'sqrt': _unary(F.sqrt, 0.05, 3.0),
    'absolute': _unary(F.absolute),
    'square': _unary(F.square),
    'clip': Op(F.clip, _clip_gen),
    'add': _binary(operator.add),
    'sub': _binary(operator.sub),
    'mul': _binary(operator.mul),
    'truediv': _binary(operator.truediv, rhs=('signed', 0.2, 1.5)),
    'pow': _binary(operator.pow, lhs=('uniform', 0.5, 2.0),
                   rhs=('uniform', -1.5, 1.5), scalars=(2, 0.5, -1.0)),
    'maximum': _binary(F.maximum, scalars=()),
    'minimum': _binary(F.minimum, scalars=()),
    'sum': _reduction(F.sum),
    'mean': _reduction(F.mean),
    'max': _reduction(F.max),
    'min': _reduction(F.min),
    'prod': _reduction(F.prod, ('signed', 0.5, 1.5)),
    'logsumexp': _reduction(F.logsumexp, keepdims=False),
    'softmax': Op(F.softmax, _softmax_gen),
    'log_softmax': Op(F.log_softmax, _softmax_gen),
    'reshape': Op(F.reshape, _reshape_gen),
    'transpose': Op(F.transpose, _transpose_gen),
    'concat': Op(lambda *xs, axis: F.concat(xs, axis), _concat_gen),
    'split_axis': Op(F.split_axis, _split_gen),
    'stack': Op(lambda *xs, axis: F.stack(xs, axis), _stack_gen),
    'get_item': Op(F.get_item, _get_item_gen),
    'broadcast_to': Op(F.broadcast_to, _broadcast_to_gen),
    'expand_dims': Op(F.expand_dims, _expand_dims_gen),
    'squeeze': Op(F.squeeze, _squeeze_gen),
    'flip': Op(F.flip, _flip_gen),
    'matmul': Op(F.matmul, _matmul_gen),
    'linear': Op(F.linear, _linear_gen),
    'convolution_2d': Op(F.convolution_2d, _convolution_gen),
    'max_pooling_2d': Op(F.max_pooling_2d, _pooling_gen(average=False)),
    'average_pooling_2d': Op(F.average_pooling_2d,
                             _pooling_gen(average=True)),
    'batch_normalization': Op(F.batch_normalization,
                              _batch_normalization_gen),
    'dropout': _unary(_dropout, params=lambda d: {
        'ratio': d.pick((0.0, 0.5, 0.9))}),
    'softmax_cross_entropy': Op(F.softmax_cross_entropy,
                                _softmax_cross_entropy_gen),
    'mean_squared_error': Op(F.mean_squared_error, _mean_squared_error_gen),
    'where': Op(F.where, _where_gen),
}


def generate(op, index):
    """Case ``index`` of ``op``, the same on every run; case 0 is the large
    one."""
    rng = numpy.random.RandomState(zlib.crc32(
        '{}/{}'.format(op, index).encode()))
    spec = OPS[op].gen(Draw(rng, large=index == 0))
    dtype = DTYPES[rng.randint(len(DTYPES))]
    if spec.terms == 1:
        spec = spec._replace(args=[
            (shape, ('extreme',) + values[1:] if values[0] == 'special'
             else values) for shape, values in spec.args])
    inputs = tuple(lay_out(rng, shape, values) for shape, values in spec.args)
    return Case(op, dtype, inputs, spec.params, int(spec.terms),
                int(rng.randint(2 ** 31)))


def call(case, xs):
    """The op of ``case`` on ``xs``, its outputs as a tuple."""
    ys = OPS[case.op].call(*xs, **case.params)
    return tuple(ys) if isinstance(ys, (tuple, list)) else (ys,)

