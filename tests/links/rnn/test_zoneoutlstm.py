"""StatefulZoneoutLSTM: the LSTM step against NumPy, zoneout in training
mode (each element the old or the new state), none outside it."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.links as L

from . import arr, close, randomize, roundtrip, sigmoid, uniform


def _make(*args, **kwargs):
    with chainer.using_config('dtype', numpy.float64):
        return randomize(L.StatefulZoneoutLSTM(*args, **kwargs))


def _lstm_ref(link, c, h, x):
    z = x @ arr(link.upward.W).T + arr(link.upward.b)
    if h is not None:
        z = z + h @ arr(link.lateral.W).T
    # Chainer's lstm layout: the four gates interleaved per unit.
    z = z.reshape(len(x), -1, 4)
    a, i, f, o = (z[:, :, k] for k in range(4))
    c_new = numpy.tanh(a) * sigmoid(i) + sigmoid(f) * c
    return c_new, sigmoid(o) * numpy.tanh(c_new)


def test_shapes():
    link = L.StatefulZoneoutLSTM(3, 4)
    assert link.upward.W.shape == (16, 3) and link.lateral.W.shape == (16, 4)
    assert link.lateral.b is None


def test_steps_outside_training():
    rng = numpy.random.RandomState(0)
    link = _make(3, 4, c_ratio=0.3, h_ratio=0.6)
    x1, x2 = uniform(rng, 2, 3), uniform(rng, 2, 3)
    with chainer.using_config('train', False):
        c1, h1 = _lstm_ref(link, numpy.zeros((2, 4)), None, x1)
        close(link(x1), h1)
        close(link.c, c1)
        c2, h2 = _lstm_ref(link, c1, h1, x2)
        close(link(x2), h2)
        close(link.c, c2)


@pytest.mark.parametrize('ratio', [0.0, 0.4, 1.0])
def test_zoneout_in_training(ratio):
    rng = numpy.random.RandomState(1)
    link = _make(3, 50, c_ratio=ratio, h_ratio=ratio)
    x1, x2 = uniform(rng, 40, 3), uniform(rng, 40, 3)
    c0, h0 = uniform(rng, 40, 50), uniform(rng, 40, 50)
    link.set_state(chainer.Variable(c0), chainer.Variable(h0))
    c_new, h_new = _lstm_ref(link, c0, h0, x1)
    h = arr(link(x1))
    c = arr(link.c)
    kept_h = h == h0
    kept_c = c == c0
    assert numpy.all(kept_h | (numpy.abs(h - h_new) < 1e-12))
    assert numpy.all(kept_c | (numpy.abs(c - c_new) < 1e-12))
    assert abs(kept_h.mean() - ratio) < 0.03
    assert abs(kept_c.mean() - ratio) < 0.03


def test_reset_state_and_serialization(tmp_path):
    link = _make(3, 4)
    link(numpy.ones((2, 3)))
    link.reset_state()
    assert link.c is None and link.h is None
    keys = roundtrip(tmp_path, link, L.StatefulZoneoutLSTM(3, 4))
    assert keys == ['lateral/W', 'upward/W', 'upward/b']


def test_bad_arguments():
    with pytest.raises(ValueError, match='train argument'):
        L.StatefulZoneoutLSTM(3, 4, train=True)
    with pytest.raises(TypeError, match='nobias'):
        L.StatefulZoneoutLSTM(3, 4, nobias=True)
    with pytest.raises(ValueError, match='StatefulZoneoutLSTM: c_ratio'):
        L.StatefulZoneoutLSTM(3, 4, c_ratio=1.5)
    with pytest.raises(TypeError, match='StatefulZoneoutLSTM: out_size'):
        L.StatefulZoneoutLSTM(3, 4.0)
