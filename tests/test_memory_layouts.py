"""chainer_core.memory_layouts, checked against Chainer 7.8.1."""
import numpy
import pytest

import chainer_core as chainer
from chainer_core import memory_layouts as ml


def test_constants():
    assert ml.CUDNN_CHANNEL_FIRST_X is None
    assert ml.CUDNN_CHANNEL_FIRST_W is None
    assert ml.CUDNN_CHANNEL_LAST_X == 'CUDNN_CHANNEL_LAST_X'
    assert ml.CUDNN_CHANNEL_LAST_W == 'CUDNN_CHANNEL_LAST_W'


def test_shapes():
    a = numpy.zeros((2, 3, 4, 5), numpy.float32)
    v = chainer.Variable(a)
    assert ml.get_raw_shape(a) == ml.get_raw_shape(v) == (2, 3, 4, 5)
    assert ml.get_semantic_shape(a) == (2, 3, 4, 5)
    assert ml.get_semantic_shape(v) == (2, 3, 4, 5)
    assert ml.get_semantic_shape(a, assumed_layout=None) == (2, 3, 4, 5)
    for layout in (ml.CUDNN_CHANNEL_LAST_X, ml.CUDNN_CHANNEL_LAST_W):
        assert ml.get_semantic_shape(a, assumed_layout=layout) == \
            (2, 5, 3, 4)


def test_bad_layouts():
    a = numpy.zeros((2, 3, 4, 5), numpy.float32)
    with pytest.raises(ValueError, match='unknown memory layout'):
        ml.get_semantic_shape(a, assumed_layout='NHWC')
    with pytest.raises(ValueError, match='assumed_layout'):
        ml.get_semantic_shape(chainer.Variable(a),
                              assumed_layout=ml.CUDNN_CHANNEL_LAST_X)
    with pytest.raises(ValueError, match='AsLayout'):
        ml.AsLayout('NHWC')


def test_as_layout_forward_and_backward():
    a = numpy.arange(120, dtype=numpy.float32).reshape(2, 3, 4, 5)
    x = chainer.Variable(a)
    y, = ml.AsLayout(ml.CUDNN_CHANNEL_LAST_X).apply((x,))
    assert y.shape == (2, 4, 5, 3)
    assert y.array.flags['C_CONTIGUOUS']
    numpy.testing.assert_array_equal(y.array, a.transpose(0, 2, 3, 1))
    assert ml.get_semantic_shape(
        y.array, assumed_layout=ml.CUDNN_CHANNEL_LAST_X) == a.shape
    g = numpy.random.RandomState(0).randn(*y.shape).astype(numpy.float32)
    y.grad = g
    y.backward()
    numpy.testing.assert_array_equal(x.grad, g.transpose(0, 3, 1, 2))


def test_as_layout_standard_is_identity():
    a = numpy.ones((2, 3), numpy.float32)
    y, = ml.AsLayout(None).apply((a,))
    numpy.testing.assert_array_equal(y.array, a)
