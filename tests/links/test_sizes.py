"""Layer sizes given as NumPy integers (as Chainer's examples pass them)
work; floats, bools and negative sizes are errors naming the link and the
argument."""
import numpy
import pytest

import chainer_core.links as L

I32, I64 = numpy.int32, numpy.int64


@pytest.mark.parametrize('make,x,shape', [
    (lambda: L.Linear(I32(3), I64(4)), numpy.ones((2, 3), numpy.float32),
     (2, 4)),
    (lambda: L.EmbedID(I32(5), I64(4)), numpy.array([0, 4], numpy.int32),
     (2, 4)),
    (lambda: L.Convolution2D(I32(3), I64(4), I32(2)),
     numpy.ones((1, 3, 4, 4), numpy.float32), (1, 4, 3, 3)),
    (lambda: L.ConvolutionND(I32(1), I32(3), I64(4), I32(2)),
     numpy.ones((1, 3, 4), numpy.float32), (1, 4, 3)),
    (lambda: L.Deconvolution2D(I32(3), I64(4), I32(2)),
     numpy.ones((1, 3, 4, 4), numpy.float32), (1, 4, 5, 5)),
    (lambda: L.LSTM(I32(3), I64(4)), numpy.ones((2, 3), numpy.float32),
     (2, 4)),
    (lambda: L.StatefulMGU(I32(3), I64(4)),
     numpy.ones((2, 3), numpy.float32), (2, 4)),
])
def test_numpy_integers(make, x, shape):
    assert make()(x).shape == shape


def test_numpy_integers_n_step():
    link = L.NStepLSTM(I32(1), I32(3), I64(4), 0.0)
    hy, cy, ys = link(None, None, [numpy.ones((2, 3), numpy.float32)])
    assert ys[0].shape == (2, 4)


@pytest.mark.parametrize('make,match', [
    (lambda: L.Linear(3.0, 4), 'Linear: in_size must be an int or None'),
    (lambda: L.Linear(3, -4), 'Linear: out_size must be non-negative'),
    (lambda: L.Linear(True, 4), 'Linear: in_size'),
    (lambda: L.EmbedID(3.5, 4), 'EmbedID: in_size must be an int'),
    (lambda: L.Convolution2D(3, -1, 2),
     'Convolution2D: out_channels must be non-negative'),
    (lambda: L.ConvolutionND(2, 3, 4.0, 2),
     'ConvolutionND: out_channels must be an int'),
    (lambda: L.Deconvolution2D(3.0, 4, 2),
     'Deconvolution2D: in_channels'),
    (lambda: L.NStepGRU(0, 3, 4, 0.0), 'NStepGRU: n_layers must be positive'),
])
def test_bad_sizes(make, match):
    with pytest.raises((TypeError, ValueError), match=match):
        make()
