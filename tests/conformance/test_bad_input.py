"""Bad input on every device: each op must refuse it with a TypeError or
ValueError whose message names the op and the offending argument."""
import re

import numpy
import pytest

import chainer_core.functions as F

i32, f32, f64 = numpy.int32, numpy.float32, numpy.float64


class Maker:
    """Arrays on the device under test, created with NumPy."""

    def __init__(self, device):
        self.device = device

    def __call__(self, shape, dtype=f32):
        size = int(numpy.prod(shape))
        a = numpy.linspace(-1, 1, size).reshape(shape).astype(dtype)
        return self.device.send(a)

    def values(self, values, dtype=i32):
        return self.device.send(numpy.array(values, dtype=dtype))


class Bad:
    """``call(maker)`` must raise; ``names`` are the op's node label and
    public name, ``args`` the words that may name the offending argument."""

    def __init__(self, id, call, names, args):
        self.id = id
        self.call = call
        self.names = names
        self.args = args

    def param(self):
        return pytest.param(self, id=self.id)


def _op(*names):
    return names


ADD, SUB, MUL, DIV, POW = (_op('Add', 'add'), _op('Sub', 'sub'),
                           _op('Mul', 'mul'), _op('Div', 'div'),
                           _op('PowVarVar', 'pow'))
BINARY_ARGS = ('lhs', 'rhs')
AXIS = ('axis',)
INDEX = ('slices', 'index', 'indices')

BAD = [
    Bad('add-not-broadcastable',
        lambda m: F.add(m((3, 4)), m((2, 4))), ADD, BINARY_ARGS),
    Bad('add-dtype-mismatch',
        lambda m: F.add(m((3, 4)), m((3, 4), f64)), ADD, BINARY_ARGS),
    Bad('sub-not-broadcastable',
        lambda m: F.sub(m((3, 4)), m((3,))), SUB, BINARY_ARGS),
    Bad('sub-dtype-mismatch',
        lambda m: F.sub(m((3, 4), f64), m((3, 4))), SUB, BINARY_ARGS),
    Bad('mul-not-broadcastable',
        lambda m: F.mul(m((2, 3, 4)), m((3, 2))), MUL, BINARY_ARGS),
    Bad('mul-dtype-mismatch',
        lambda m: F.mul(m((3, 4)), m((3, 4), f64)), MUL, BINARY_ARGS),
    Bad('div-not-broadcastable',
        lambda m: F.div(m((4,)), m((5,))), DIV, BINARY_ARGS),
    Bad('div-dtype-mismatch',
        lambda m: F.div(m((3, 4)), m((4,), f64)), DIV, BINARY_ARGS),
    Bad('pow-not-broadcastable',
        lambda m: F.pow(m((3, 4)), m((2, 4))), POW, BINARY_ARGS),
    Bad('pow-dtype-mismatch',
        lambda m: F.pow(m((3, 4)), m((3, 4), f64)), POW, BINARY_ARGS),
    Bad('add-unsupported-operand',
        lambda m: F.add(m((3, 4)), 'one'), ADD, ('operand',)),

    Bad('exp-int', lambda m: F.exp(m((3,), i32)), _op('Exp', 'exp'), ('x',)),
    Bad('log-int', lambda m: F.log(m((3,), i32)), _op('Log', 'log'), ('x',)),

    Bad('sum-axis-out-of-range',
        lambda m: F.sum(m((2, 3, 4)), axis=3), _op('Sum', 'sum'), AXIS),
    Bad('sum-negative-axis-out-of-range',
        lambda m: F.sum(m((2, 3, 4)), axis=(0, -4)), _op('Sum', 'sum'), AXIS),
    Bad('sum-duplicate-axis',
        lambda m: F.sum(m((2, 3, 4)), axis=(1, -2)), _op('Sum', 'sum'), AXIS),
    Bad('sum-axis-not-int',
        lambda m: F.sum(m((2, 3)), axis=1.0), _op('Sum', 'sum'), AXIS),
    Bad('sum-int', lambda m: F.sum(m((2, 3), i32)), _op('Sum', 'sum'),
        ('x',)),
    Bad('sum_to-not-broadcast-from',
        lambda m: F.sum_to(m((2, 3)), (4,)), _op('SumTo', 'sum_to'),
        ('x', 'shape')),

    Bad('matmul-inner-dims',
        lambda m: F.matmul(m((3, 4)), m((5, 2))), _op('MatMul', 'matmul'),
        ('a', 'b')),
    Bad('matmul-inner-dims-transb',
        lambda m: F.matmul(m((3, 4)), m((4, 2)), transb=True),
        _op('MatMul', 'matmul'), ('a', 'b')),
    Bad('matmul-batch-not-broadcastable',
        lambda m: F.matmul(m((2, 3, 4)), m((3, 4, 2))),
        _op('MatMul', 'matmul'), ('a', 'b')),
    Bad('matmul-int',
        lambda m: F.matmul(m((3, 4), i32), m((4, 2), i32)),
        _op('MatMul', 'matmul'), ('a',)),
    Bad('matmul-dtype-mismatch',
        lambda m: F.matmul(m((3, 4)), m((4, 2), f64)),
        _op('MatMul', 'matmul'), ('a', 'b')),
    Bad('matmul-0dim',
        lambda m: F.matmul(m(()), m((4, 2))), _op('MatMul', 'matmul'),
        ('a',)),

    Bad('reshape-size-mismatch',
        lambda m: F.reshape(m((2, 3)), (4,)), _op('Reshape', 'reshape'),
        ('x', 'shape')),
    Bad('reshape-infer-impossible',
        lambda m: F.reshape(m((2, 3)), (4, -1)), _op('Reshape', 'reshape'),
        ('x', 'shape')),
    Bad('reshape-two-unknown',
        lambda m: F.reshape(m((2, 3)), (-1, -1)), _op('Reshape', 'reshape'),
        ('shape',)),

    Bad('transpose-axes-too-short',
        lambda m: F.transpose(m((2, 3, 4)), (1, 0)),
        _op('Transpose', 'transpose'), ('axes',)),
    Bad('transpose-axes-repeated',
        lambda m: F.transpose(m((2, 3, 4)), (0, 0, 1)),
        _op('Transpose', 'transpose'), ('axes',)),
    Bad('transpose-axis-out-of-range',
        lambda m: F.transpose(m((2, 3, 4)), (0, 1, 3)),
        _op('Transpose', 'transpose'), ('axes',)),
    # Out-of-range axes that would alias valid ones modulo ndim.
    Bad('transpose-axis-out-of-range-by-ndim',
        lambda m: F.transpose(m((2, 3, 4)), (0, 1, 5)),
        _op('Transpose', 'transpose'), ('axes',)),
    Bad('transpose-negative-axis-out-of-range',
        lambda m: F.transpose(m((2, 3, 4)), (0, 1, -4)),
        _op('Transpose', 'transpose'), ('axes',)),

    Bad('broadcast_to-incompatible',
        lambda m: F.broadcast_to(m((3, 2)), (3, 4)),
        _op('BroadcastTo', 'broadcast_to'), ('x', 'shape')),
    Bad('broadcast_to-fewer-axes',
        lambda m: F.broadcast_to(m((2, 3, 4)), (3, 4)),
        _op('BroadcastTo', 'broadcast_to'), ('x', 'shape')),

    Bad('get_item-int-out-of-range',
        lambda m: F.get_item(m((3, 4)), 3), _op('GetItem', 'get_item'),
        INDEX),
    Bad('get_item-negative-out-of-range',
        lambda m: F.get_item(m((3, 4)), (slice(None), -5)),
        _op('GetItem', 'get_item'), INDEX),
    Bad('get_item-array-out-of-range',
        lambda m: F.get_item(m((3, 4)), [0, 3]), _op('GetItem', 'get_item'),
        INDEX),
    Bad('get_item-device-array-out-of-range',
        lambda m: F.get_item(m((3, 4)), (0, m.values([1, 4]))),
        _op('GetItem', 'get_item'), INDEX),
    Bad('get_item-too-many-indices',
        lambda m: F.get_item(m((3, 4)), (0, 1, 2)),
        _op('GetItem', 'get_item'), INDEX),
    Bad('get_item-mask-shape',
        lambda m: F.get_item(m((3, 4)), m.values(numpy.ones((2, 4)), bool)),
        _op('GetItem', 'get_item'), INDEX),
    Bad('get_item-float-index',
        lambda m: F.get_item(m((3, 4)), 1.5), _op('GetItem', 'get_item'),
        INDEX),

    Bad('relu-int', lambda m: F.relu(m((3, 4), i32)), _op('ReLU', 'relu'),
        ('x',)),
    Bad('sigmoid-int', lambda m: F.sigmoid(m((3, 4), i32)),
        _op('Sigmoid', 'sigmoid'), ('x',)),
    Bad('tanh-int', lambda m: F.tanh(m((3, 4), i32)), _op('Tanh', 'tanh'),
        ('x',)),
    Bad('softmax-axis-out-of-range',
        lambda m: F.softmax(m((3, 4)), axis=2), _op('Softmax', 'softmax'),
        AXIS),
    Bad('log_softmax-int',
        lambda m: F.log_softmax(m((3, 4), i32)),
        _op('LogSoftmax', 'log_softmax'), ('x',)),

    Bad('linear-W-in-size',
        lambda m: F.linear(m((4, 3)), m((2, 4))),
        _op('LinearFunction', 'linear'), ('x', 'W')),
    Bad('linear-W-ndim',
        lambda m: F.linear(m((4, 3)), m((3,))),
        _op('LinearFunction', 'linear'), ('W',)),
    Bad('linear-W-dtype',
        lambda m: F.linear(m((4, 3)), m((2, 3), f64)),
        _op('LinearFunction', 'linear'), ('W',)),
    Bad('linear-b-size',
        lambda m: F.linear(m((4, 3)), m((2, 3)), m((3,))),
        _op('LinearFunction', 'linear'), ('b',)),
    Bad('linear-x-1d',
        lambda m: F.linear(m((3,)), m((2, 3))),
        _op('LinearFunction', 'linear'), ('x',)),
    Bad('linear-x-int',
        lambda m: F.linear(m((4, 3), i32), m((2, 3), i32)),
        _op('LinearFunction', 'linear'), ('x',)),
    Bad('linear-n_batch_axes-zero',
        lambda m: F.linear(m((4, 3)), m((2, 3)), n_batch_axes=0),
        _op('LinearFunction', 'linear'), ('n_batch_axes',)),
    Bad('linear-n_batch_axes-too-many',
        lambda m: F.linear(m((4, 3)), m((2, 3)), n_batch_axes=3),
        _op('LinearFunction', 'linear'), ('n_batch_axes',)),

    Bad('mean_squared_error-shape',
        lambda m: F.mean_squared_error(m((3, 4)), m((4, 3))),
        _op('MeanSquaredError', 'mean_squared_error'), ('x0', 'x1')),
    Bad('mean_squared_error-dtype',
        lambda m: F.mean_squared_error(m((3, 4)), m((3, 4), f64)),
        _op('MeanSquaredError', 'mean_squared_error'), ('x0', 'x1')),
    Bad('mean_squared_error-int',
        lambda m: F.mean_squared_error(m((3, 4), i32), m((3, 4), i32)),
        _op('MeanSquaredError', 'mean_squared_error'), ('x0',)),

    Bad('softmax_cross_entropy-t-shape',
        lambda m: F.softmax_cross_entropy(m((4, 3)), m.values([0, 1, 2])),
        _op('SoftmaxCrossEntropy', 'softmax_cross_entropy'), ('t',)),
    Bad('softmax_cross_entropy-t-float',
        lambda m: F.softmax_cross_entropy(
            m((4, 3)), m.values([0, 1, 2, 0], f32)),
        _op('SoftmaxCrossEntropy', 'softmax_cross_entropy'), ('t',)),
    Bad('softmax_cross_entropy-x-ndim',
        lambda m: F.softmax_cross_entropy(m((4,)), m.values([0, 1, 2, 0])),
        _op('SoftmaxCrossEntropy', 'softmax_cross_entropy'), ('x',)),
    Bad('softmax_cross_entropy-x-int',
        lambda m: F.softmax_cross_entropy(
            m((4, 3), i32), m.values([0, 1, 2, 0])),
        _op('SoftmaxCrossEntropy', 'softmax_cross_entropy'), ('x',)),
    Bad('softmax_cross_entropy-label-out-of-range',
        lambda m: F.softmax_cross_entropy(m((4, 3)), m.values([0, 3, 2, 0])),
        _op('SoftmaxCrossEntropy', 'softmax_cross_entropy'), ('t',)),
    Bad('softmax_cross_entropy-reduce',
        lambda m: F.softmax_cross_entropy(
            m((4, 3)), m.values([0, 1, 2, 0]), reduce='sum'),
        _op('SoftmaxCrossEntropy', 'softmax_cross_entropy'), ('reduce',)),
    Bad('softmax_cross_entropy-class_weight-shape',
        lambda m: F.softmax_cross_entropy(
            m((4, 3)), m.values([0, 1, 2, 0]), class_weight=m((4,))),
        _op('SoftmaxCrossEntropy', 'softmax_cross_entropy'),
        ('class_weight',)),
    Bad('softmax_cross_entropy-double-backprop-t-shape',
        lambda m: F.softmax_cross_entropy(
            m((4, 3)), m.values([0, 1]), enable_double_backprop=True),
        _op('SoftmaxCrossEntropy', 'softmax_cross_entropy'), ('t',)),
]


def _words(words):
    """A pattern matching any of ``words`` as a whole word."""
    return re.compile(r'(?<!\w)(?:{})(?!\w)'.format(
        '|'.join(re.escape(w) for w in words)))


@pytest.mark.parametrize('bad', [b.param() for b in BAD])
def test_bad_input(bad, device):
    with pytest.raises((TypeError, ValueError)) as info:
        bad.call(Maker(device))
    message = str(info.value)
    assert _words(bad.names).search(message), \
        'the message does not name the op ({}): {}'.format(
            ' or '.join(bad.names), message)
    assert _words(bad.args).search(message), \
        'the message does not name the argument ({}): {}'.format(
            ' or '.join(bad.args), message)
