"""Cases of activations."""
import numpy

import chainer_core
import chainer_core.functions as F

from . import Floats, Signed, case, f16

# -- activations

case('relu', (Signed((3, 4), 0.1, 1.0),), F.relu,
     lambda x: numpy.where(x > 0, x, 0.0))
case('relu-3d', (Signed((2, 3, 4), 0.1, 1.0),), F.relu,
     lambda x: numpy.where(x > 0, x, 0.0))
case('sigmoid', (Floats((3, 4), -3.0, 3.0),), F.sigmoid,
     lambda x: 1.0 / (1.0 + numpy.exp(-x)))
case('sigmoid-0dim', (Floats((), -3.0, 3.0),), F.sigmoid,
     lambda x: 1.0 / (1.0 + numpy.exp(-x)))
case('tanh', (Floats((3, 4), -2.0, 2.0),), F.tanh,
     lambda x: (1.0 - numpy.exp(-2 * x)) / (1.0 + numpy.exp(-2 * x)))
case('tanh-0dim', (Floats((), -2.0, 2.0),), F.tanh,
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


# -- the second activation set


class Bands:
    """Floats drawn from the given ``(low, high)`` intervals, each element
    from a random one: inputs on every piece of a piecewise function, away
    from its kinks."""

    def __init__(self, shape, bands):
        self.shape, self.bands = shape, bands

    def make(self, rng, dtype):
        lows = numpy.array([b[0] for b in self.bands])
        highs = numpy.array([b[1] for b in self.bands])
        pick = rng.randint(0, len(self.bands), self.shape)
        return rng.uniform(lows[pick], highs[pick]).astype(dtype)


class Distinct:
    """A shuffled grid ``offset + step * k``: no two elements within
    ``step`` (maxima stay unique under small perturbations)."""

    def __init__(self, shape, step=0.1):
        self.shape, self.step = shape, step

    def make(self, rng, dtype):
        n = int(numpy.prod(self.shape))
        grid = (rng.permutation(n) - n / 2) * self.step
        return grid.reshape(self.shape).astype(dtype)


def _sigmoid(t):
    return 1.0 / (1.0 + numpy.exp(-t))


def _clip_ref(x, z):
    return numpy.minimum(numpy.maximum(x, 0.0), z)


case('relu6', (Bands((3, 4), [(-3, -0.3), (0.3, 5.7), (6.3, 9)]),),
     F.relu6, lambda x: _clip_ref(x, 6.0))
case('clipped_relu', (Bands((3, 4), [(-3, -0.3), (0.3, 19.5), (20.5, 25)]),),
     F.clipped_relu, lambda x: _clip_ref(x, 20.0))
case('clipped_relu-z',
     (Bands((2, 3, 4), [(-2, -0.2), (0.2, 2.3), (2.7, 4)]),),
     lambda x: F.clipped_relu(x, 2.5), lambda x: _clip_ref(x, 2.5))

for _slope in (0.2, 0.05, -0.5):
    case('leaky_relu-slope{}'.format(_slope), (Signed((3, 4)),),
         lambda x, s=_slope: F.leaky_relu(x, slope=s),
         lambda x, s=_slope: numpy.where(x >= 0, x, s * x))
case('leaky_relu-default', (Signed((2, 3, 2)),), F.leaky_relu,
     lambda x: numpy.where(x >= 0, x, 0.2 * x))

for _alpha in (1.0, 0.5):
    case('elu-alpha{}'.format(_alpha), (Signed((3, 4), 0.1, 2.0),),
         lambda x, a=_alpha: F.elu(x, alpha=a),
         lambda x, a=_alpha: numpy.where(x >= 0, x, a * (numpy.exp(x) - 1)))
case('selu', (Signed((3, 4), 0.1, 2.0),), F.selu,
     lambda x: 1.0507009873554804934193349852946 * numpy.where(
         x >= 0, x, 1.6732632423543772848170429916717 * (numpy.exp(x) - 1)))
case('selu-params', (Signed((3, 4), 0.1, 2.0),),
     lambda x: F.selu(x, alpha=2.0, scale=0.5),
     lambda x: 0.5 * numpy.where(x >= 0, x, 2.0 * (numpy.exp(x) - 1)))


def _crelu_ref(x, axis):
    return numpy.concatenate((numpy.maximum(x, 0), numpy.maximum(-x, 0)),
                             axis=axis)


for _id, _shape, _axis in (('', (3, 4), 1), ('-axis0', (3, 4), 0),
                           ('-3d-neg-axis', (2, 3, 2), -1)):
    case('crelu' + _id, (Signed(_shape),),
         lambda x, a=_axis: F.crelu(x, axis=a),
         lambda x, a=_axis: _crelu_ref(x, a))

case('hard_sigmoid', (Bands((3, 4), [(-4, -2.7), (-2.3, 2.3), (2.7, 4)]),),
     F.hard_sigmoid, lambda x: numpy.clip(0.2 * x + 0.5, 0.0, 1.0))


def _softplus_ref(x, beta):
    return numpy.log(1.0 + numpy.exp(beta * x)) / beta


for _beta in (1.0, 2.5, -1.0):
    case('softplus-beta{}'.format(_beta), (Floats((3, 4), -3.0, 3.0),),
         lambda x, b=_beta: F.softplus(x, beta=b),
         lambda x, b=_beta: _softplus_ref(x, b))


def _param_view(p, x_ndim):
    return p.reshape((1,) + p.shape + (1,) * (x_ndim - p.ndim - 1))


for _id, _x_shape, _p_shape in (('', (2, 3), (3,)),
                                ('-trailing', (2, 3, 4), (3,)),
                                ('-2d-param', (2, 3, 4), (3, 4)),
                                ('-0dim-param', (2, 3), ())):
    case('swish' + _id, (Floats(_x_shape, -2.0, 2.0),
                         Floats(_p_shape, -1.5, 1.5)),
         F.swish,
         lambda x, b: x * _sigmoid(_param_view(b, x.ndim) * x))
    case('prelu' + _id, (Signed(_x_shape), Floats(_p_shape, -0.5, 0.5)),
         F.prelu,
         lambda x, w: numpy.where(x >= 0, x, _param_view(w, x.ndim) * x))


def _maxout_ref(x, pool, axis):
    axis %= x.ndim
    shape = x.shape[:axis] + (x.shape[axis] // pool, pool) + \
        x.shape[axis + 1:]
    return x.reshape(shape).max(axis=axis + 1)


for _id, _shape, _pool, _axis in (('', (2, 6), 3, 1),
                                  ('-pool2-axis2', (2, 3, 4), 2, 2),
                                  ('-neg-axis', (4, 3, 2), 2, -3),
                                  ('-pool1', (2, 3), 1, 1)):
    case('maxout' + _id, (Distinct(_shape),),
         lambda x, p=_pool, a=_axis: F.maxout(x, p, axis=a),
         lambda x, p=_pool, a=_axis: _maxout_ref(x, p, a))

case('rrelu-given-r', (Signed((3, 4)),),
     lambda x, r: F.rrelu(x, r=r),
     lambda x, r: numpy.where(x >= 0, x, r * x),
     consts=dict(r=Floats((3, 4), 0.125, 0.33)))


def _rrelu_test_mode(x):
    with chainer_core.using_config('train', False):
        return F.rrelu(x, l=0.1, u=0.3)


case('rrelu-test-mode', (Signed((3, 4)),), _rrelu_test_mode,
     lambda x: numpy.where(x >= 0, x, 0.2 * x))


# -- LSTM cells: one case per output (each case checks one Variable).

def _lstm_ref(c_prev, x):
    batch, units = x.shape[0], c_prev.shape[1]
    gates = x.reshape((batch, units, 4) + x.shape[2:])
    a, i, f, o = (gates[:, :, k] for k in range(4))
    c = numpy.tanh(a) * _sigmoid(i) + _sigmoid(f) * c_prev[:batch]
    h = _sigmoid(o) * numpy.tanh(c)
    return numpy.concatenate((c, c_prev[batch:])), h


for _id, _c_shape, _x_shape in (('', (3, 2), (3, 8)),
                                ('-short-x', (4, 2), (2, 8)),
                                ('-trailing', (2, 2, 3), (2, 8, 3))):
    for _k, _out in enumerate(('c', 'h')):
        case('lstm{}-{}'.format(_id, _out),
             (Floats(_c_shape), Floats(_x_shape)),
             lambda c, x, k=_k: F.lstm(c, x)[k],
             lambda c, x, k=_k: _lstm_ref(c, x)[k])


def _slstm_ref(c1, c2, x1, x2):
    def gates(x):
        g = x.reshape((x.shape[0], x.shape[1] // 4, 4) + x.shape[2:])
        return [g[:, :, k] for k in range(4)]
    a1, i1, f1, o1 = gates(x1)
    a2, i2, f2, o2 = gates(x2)
    c = (numpy.tanh(a1) * _sigmoid(i1) + numpy.tanh(a2) * _sigmoid(i2)
         + _sigmoid(f1) * c1 + _sigmoid(f2) * c2)
    return c, _sigmoid(o1 + o2) * numpy.tanh(c)


for _id, _c_shape, _x_shape in (('', (3, 2), (3, 8)),
                                ('-trailing', (2, 1, 3), (2, 4, 3))):
    for _k, _out in enumerate(('c', 'h')):
        case('slstm{}-{}'.format(_id, _out),
             (Floats(_c_shape), Floats(_c_shape), Floats(_x_shape),
              Floats(_x_shape)),
             lambda *args, k=_k: F.slstm(*args)[k],
             lambda *args, k=_k: _slstm_ref(*args)[k])


def _tree_lstm_ref(*inputs):
    cs, x = inputs[:-1], inputs[-1]
    n = len(cs) + 3
    blocks = x.reshape((x.shape[0], n, x.shape[1] // n) + x.shape[2:])
    a, i, o = blocks[:, 0], blocks[:, 1], blocks[:, 2]
    c = numpy.tanh(a) * _sigmoid(i)
    for k, cell in enumerate(cs):
        c = c + _sigmoid(blocks[:, 3 + k]) * cell
    return c, _sigmoid(o) * numpy.tanh(c)


# Chainer v7's tree_lstm gradient is first order only.
for _id, _n, _c_shape, _x_width in (('-1ary', 1, (3, 2), 8),
                                    ('-2ary', 2, (3, 2), 10),
                                    ('-3ary-trailing', 3, (2, 1, 2), 6)):
    _x_shape = (_c_shape[0], _x_width) + _c_shape[2:]
    for _k, _out in enumerate(('c', 'h')):
        case('tree_lstm{}-{}'.format(_id, _out),
             tuple(Floats(_c_shape) for _ in range(_n))
             + (Floats(_x_shape),),
             lambda *args, k=_k: F.tree_lstm(*args)[k],
             lambda *args, k=_k: _tree_lstm_ref(*args)[k],
             double=False)
