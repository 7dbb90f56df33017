"""Bad input of activation ops."""
import chainer_core.functions as F

from . import bad, f64, i32, AXIS, _op

bad('relu-int', lambda m: F.relu(m((3, 4), i32)), _op('ReLU', 'relu'),
    ('x',))
bad('sigmoid-int', lambda m: F.sigmoid(m((3, 4), i32)),
    _op('Sigmoid', 'sigmoid'), ('x',))
bad('tanh-int', lambda m: F.tanh(m((3, 4), i32)), _op('Tanh', 'tanh'),
    ('x',))
bad('softmax-axis-out-of-range',
    lambda m: F.softmax(m((3, 4)), axis=2), _op('Softmax', 'softmax'),
    AXIS)
bad('log_softmax-int',
    lambda m: F.log_softmax(m((3, 4), i32)),
    _op('LogSoftmax', 'log_softmax'), ('x',))

# -- the second activation set

RELU6 = _op('ClippedReLU', 'relu6')
CLIPPED = _op('ClippedReLU', 'clipped_relu')
LEAKY = _op('LeakyReLU', 'leaky_relu')
ELU = _op('ELU', 'elu')
SELU = _op('SELU', 'selu')
CRELU = _op('CReLU', 'crelu')
SOFTPLUS = _op('Softplus', 'softplus')
SWISH = _op('Swish', 'swish')
PRELU = _op('PReLU', 'prelu')
MAXOUT = _op('Maxout', 'maxout')
RRELU = _op('RReLU', 'rrelu')
LSTM = _op('LSTM', 'lstm')
SLSTM = _op('SLSTM', 'slstm')
TREE_LSTM = _op('TreeLSTM', 'tree_lstm')

for _name, _fn, _names in (
        ('relu6', F.relu6, RELU6), ('clipped_relu', F.clipped_relu, CLIPPED),
        ('leaky_relu', F.leaky_relu, LEAKY), ('elu', F.elu, ELU),
        ('selu', F.selu, SELU), ('crelu', F.crelu, CRELU),
        ('hard_sigmoid', F.hard_sigmoid,
         _op('HardSigmoid', 'hard_sigmoid')),
        ('softplus', F.softplus, SOFTPLUS), ('rrelu', F.rrelu, RRELU)):
    bad(_name + '-int', lambda m, f=_fn: f(m((3, 4), i32)), _names, ('x',))

bad('clipped_relu-z-not-positive',
    lambda m: F.clipped_relu(m((3, 4)), z=0.0), CLIPPED, ('z',))
bad('clipped_relu-z-not-a-number',
    lambda m: F.clipped_relu(m((3, 4)), z='6'), CLIPPED, ('z',))
bad('leaky_relu-slope-not-a-number',
    lambda m: F.leaky_relu(m((3, 4)), slope=None), LEAKY, ('slope',))
bad('elu-alpha-not-a-number',
    lambda m: F.elu(m((3, 4)), alpha=[1.0]), ELU, ('alpha',))
bad('selu-scale-not-a-number',
    lambda m: F.selu(m((3, 4)), scale='1'), SELU, ('scale',))
bad('crelu-axis-out-of-range',
    lambda m: F.crelu(m((3, 4)), axis=2), CRELU, AXIS)
bad('crelu-negative-axis-out-of-range',
    lambda m: F.crelu(m((3, 4)), axis=-3), CRELU, AXIS)
bad('crelu-axis-not-int',
    lambda m: F.crelu(m((3, 4)), axis=1.0), CRELU, AXIS)
bad('softplus-beta-zero',
    lambda m: F.softplus(m((3, 4)), beta=0), SOFTPLUS, ('beta',))

bad('swish-beta-shape',
    lambda m: F.swish(m((2, 3, 4)), m((4,))), SWISH, ('beta',))
bad('swish-beta-ndim',
    lambda m: F.swish(m((2, 3)), m((2, 3))), SWISH, ('beta',))
bad('swish-beta-dtype',
    lambda m: F.swish(m((2, 3)), m((3,), f64)), SWISH, ('beta',))
bad('swish-x-int',
    lambda m: F.swish(m((2, 3), i32), m((3,), i32)), SWISH, ('x',))
bad('prelu-W-shape',
    lambda m: F.prelu(m((2, 3, 4)), m((4,))), PRELU, ('W',))
bad('prelu-W-ndim',
    lambda m: F.prelu(m((2, 3)), m((2, 3))), PRELU, ('W',))
bad('prelu-W-dtype',
    lambda m: F.prelu(m((2, 3)), m((3,), f64)), PRELU, ('W',))

bad('maxout-pool_size-not-dividing',
    lambda m: F.maxout(m((2, 6)), 4), MAXOUT, ('pool_size',))
bad('maxout-pool_size-zero',
    lambda m: F.maxout(m((2, 6)), 0), MAXOUT, ('pool_size',))
bad('maxout-pool_size-not-int',
    lambda m: F.maxout(m((2, 6)), 2.0), MAXOUT, ('pool_size',))
bad('maxout-axis-out-of-range',
    lambda m: F.maxout(m((2, 6)), 2, axis=2), MAXOUT, AXIS)
bad('maxout-int',
    lambda m: F.maxout(m((2, 6), i32), 2), MAXOUT, ('x',))

bad('rrelu-l-out-of-range',
    lambda m: F.rrelu(m((3, 4)), l=-0.1), RRELU, ('l',))
bad('rrelu-u-out-of-range',
    lambda m: F.rrelu(m((3, 4)), u=1.0), RRELU, ('u',))
bad('rrelu-l-not-below-u',
    lambda m: F.rrelu(m((3, 4)), l=0.3, u=0.2), RRELU, ('l', 'u'))
bad('rrelu-r-shape',
    lambda m: F.rrelu(m((3, 4)), r=m((4, 3))), RRELU, ('r',))
bad('rrelu-r-dtype',
    lambda m: F.rrelu(m((3, 4)), r=m((3, 4), f64)), RRELU, ('r',))

bad('lstm-x-width',
    lambda m: F.lstm(m((3, 2)), m((3, 6))), LSTM, ('x', 'c_prev'))
bad('lstm-x-more-rows-than-c_prev',
    lambda m: F.lstm(m((2, 2)), m((3, 8))), LSTM, ('x', 'c_prev'))
bad('lstm-dtype-mismatch',
    lambda m: F.lstm(m((3, 2)), m((3, 8), f64)), LSTM, ('x', 'c_prev'))
bad('lstm-c_prev-1d',
    lambda m: F.lstm(m((2,)), m((8,))), LSTM, ('c_prev',))
bad('lstm-trailing-axes',
    lambda m: F.lstm(m((3, 2, 4)), m((3, 8, 5))), LSTM, ('x', 'c_prev'))
bad('lstm-int',
    lambda m: F.lstm(m((3, 2), i32), m((3, 8), i32)), LSTM, ('c_prev',))
bad('slstm-x2-shape',
    lambda m: F.slstm(m((3, 2)), m((3, 2)), m((3, 8)), m((3, 4))),
    SLSTM, ('x2',))
bad('slstm-c_prev2-shape',
    lambda m: F.slstm(m((3, 2)), m((2, 2)), m((3, 8)), m((3, 8))),
    SLSTM, ('c_prev2',))
bad('slstm-rows',
    lambda m: F.slstm(m((3, 2)), m((3, 2)), m((2, 8)), m((2, 8))),
    SLSTM, ('x1', 'c_prev1'))
bad('tree_lstm-x-width',
    lambda m: F.tree_lstm(m((3, 2)), m((3, 2)), m((3, 8))), TREE_LSTM,
    ('x', 'c1'))
bad('tree_lstm-cell-shapes',
    lambda m: F.tree_lstm(m((3, 2)), m((3, 3)), m((3, 10))), TREE_LSTM,
    ('x', 'c2'))
bad('tree_lstm-no-cell',
    lambda m: F.tree_lstm(m((3, 8))), TREE_LSTM, ('inputs',))
bad('softmax-axis-not-int',
    lambda m: F.softmax(m((3, 4)), axis='1'), _op('Softmax', 'softmax'),
    AXIS)
bad('log_softmax-axis-not-int',
    lambda m: F.log_softmax(m((3, 4)), axis=None),
    _op('LogSoftmax', 'log_softmax'), AXIS)
