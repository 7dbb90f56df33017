"""Shapes, sizes and axes given as NumPy integers (as Chainer code passes
them, e.g. sizes read from arrays) behave as the same Python ints."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core.testing.backend import device_params

i32, i64 = numpy.int32, numpy.int64

# (name, call with NumPy integers, the same call with Python ints)
CASES = [
    ('reshape', lambda x: F.reshape(x, (i32(6), i64(4))),
     lambda x: F.reshape(x, (6, 4))),
    ('reshape_one', lambda x: F.reshape(x, i32(24)),
     lambda x: F.reshape(x, 24)),
    ('sum_axis', lambda x: F.sum(x, axis=i32(1)),
     lambda x: F.sum(x, axis=1)),
    ('sum_axes', lambda x: F.sum(x, axis=(i32(0), i64(2))),
     lambda x: F.sum(x, axis=(0, 2))),
    ('transpose', lambda x: F.transpose(x, (i32(2), i64(0), i32(1))),
     lambda x: F.transpose(x, (2, 0, 1))),
    ('cumsum', lambda x: F.cumsum(x, axis=i32(1)),
     lambda x: F.cumsum(x, axis=1)),
    ('cumprod', lambda x: F.cumprod(x, axis=i64(2)),
     lambda x: F.cumprod(x, axis=2)),
    ('max', lambda x: F.max(x, axis=i32(1)), lambda x: F.max(x, axis=1)),
    ('softmax', lambda x: F.softmax(x, axis=i64(1)),
     lambda x: F.softmax(x, axis=1)),
    ('concat', lambda x: F.concat((x, x), axis=i32(1)),
     lambda x: F.concat((x, x), axis=1)),
    ('split_axis', lambda x: F.split_axis(x, i32(2), axis=i64(2))[1],
     lambda x: F.split_axis(x, 2, axis=2)[1]),
    ('broadcast_to', lambda x: F.broadcast_to(x[0:1], (i32(2), 3, i64(4))),
     lambda x: F.broadcast_to(x[0:1], (2, 3, 4))),
    ('get_item', lambda x: x[:, i64(1)], lambda x: x[:, 1]),
    ('max_pooling_2d',
     lambda x: F.max_pooling_2d(x[None], i32(2), stride=i64(2)),
     lambda x: F.max_pooling_2d(x[None], 2, stride=2)),
]


@pytest.mark.parametrize('device', device_params())
@pytest.mark.parametrize('name,with_numpy_ints,with_ints', CASES,
                         ids=[c[0] for c in CASES])
def test_numpy_integers_act_as_ints(device, name, with_numpy_ints,
                                    with_ints):
    x = chainer.Variable(device.send(
        numpy.arange(24, dtype=numpy.float32).reshape(2, 3, 4)))
    cpu = chainer.get_device('@numpy')
    expected = cpu.send(with_ints(x).array)
    actual = with_numpy_ints(x)
    numpy.testing.assert_array_equal(cpu.send(actual.array), expected)
    F.sum(actual).backward()
    assert x.grad is not None


@pytest.mark.parametrize('make,arg', [
    (lambda: L.Linear(i32(4), i64(5)), numpy.ones((2, 4), numpy.float32)),
    (lambda: L.Convolution2D(i32(2), i64(3), i32(3), stride=i64(1),
                             pad=i32(1)),
     numpy.ones((1, 2, 4, 4), numpy.float32)),
    (lambda: L.EmbedID(i32(10), i64(4)), numpy.array([1, 2], numpy.int32)),
    (lambda: L.LSTM(i32(4), i64(5)), numpy.ones((2, 4), numpy.float32)),
    (lambda: L.BatchNormalization(i64(3)),
     numpy.ones((2, 3), numpy.float32)),
])
def test_links_take_numpy_integer_sizes(make, arg):
    link = make()
    y = link(arg)
    assert y.shape[0] == arg.shape[0]
