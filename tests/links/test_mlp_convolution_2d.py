"""MLPConvolution2D against its convolutions applied by hand, and
Parameter."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L

from ._util import check_param_grads, check_round_trip, float64, rand


def test_structure():
    link = L.MLPConvolution2D(3, (4, 5, 6), 3, stride=2, pad=1)
    assert len(link) == 3
    assert [c.W.shape for c in link] == [(4, 3, 3, 3), (5, 4, 1, 1),
                                         (6, 5, 1, 1)]
    assert link[0].stride == (2, 2) and link[1].stride == (1, 1)


def test_forward_without_activation_after_the_last():
    link = float64(lambda: L.MLPConvolution2D(2, (3, 4), 2, pad=1,
                                              bias_init=-0.3))
    x = rand((2, 2, 4, 4), 0)
    w = [c.W.array for c in link]
    h = numpy.maximum(F.convolution_2d(x, w[0], link[0].b.array,
                                       pad=1).array, 0)
    y = F.convolution_2d(h, w[1], link[1].b.array).array
    assert (y < 0).any()
    numpy.testing.assert_allclose(link(x).array, y, rtol=1e-12)


def test_lazy_in_channels_and_activation():
    link = L.MLPConvolution2D((4, 5), 3, activation=F.tanh)
    assert link.activation is F.tanh
    y = link(numpy.ones((1, 2, 5, 5), numpy.float32))
    assert y.shape == (1, 5, 3, 3) and link[0].W.shape == (4, 2, 3, 3)


def test_initializers():
    link = L.MLPConvolution2D(2, (3, 4), 1, conv_init=2.0, bias_init=1.0)
    for c in link:
        numpy.testing.assert_array_equal(c.W.array, 2)
        numpy.testing.assert_array_equal(c.b.array, 1)


def test_gradients_and_round_trip():
    x = rand((1, 2, 3, 3), 1)
    make = lambda: float64(lambda: L.MLPConvolution2D(  # NOQA
        2, (3, 2), 2, bias_init=0.1, activation=F.tanh))
    check_param_grads(make(), (x,))
    check_round_trip(make, (x,))


def test_bad_arguments():
    with pytest.raises(TypeError, match='wscale'):
        L.MLPConvolution2D(2, (3, 4), 1, 1, 0, F.relu, 0.5)
    with pytest.raises(ValueError, match='wscale'):
        L.MLPConvolution2D(2, (3, 4), 1, wscale=0.5)
    with pytest.raises(TypeError, match='nobias'):
        L.MLPConvolution2D(2, (3, 4), 1, nobias=True)
    with pytest.raises(ValueError, match='MLPConvolution2D: out_channels'):
        L.MLPConvolution2D(2, (), 1)


class TestParameter:

    def test_holds_and_returns_the_array(self):
        a = numpy.arange(6.0).reshape(2, 3)
        link = L.Parameter(a)
        assert [n for n, _ in link.namedparams()] == ['/W']
        assert link() is link.W and link('on') is link.W
        numpy.testing.assert_array_equal(link.W.array, a)
        assert link.W.dtype == numpy.float64

    def test_learns(self):
        link = L.Parameter(numpy.ones(3, numpy.float32))
        opt = chainer.optimizers.SGD(lr=0.5).setup(link)
        link.cleargrads()
        F.sum(link() * 2).backward()
        opt.update()
        numpy.testing.assert_array_equal(link.W.array, [0, 0, 0])
