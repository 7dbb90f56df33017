"""Bad input of activation ops."""
import chainer_core.functions as F

from . import bad, i32, AXIS, _op

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
