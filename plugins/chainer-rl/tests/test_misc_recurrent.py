"""chainer_rl.recurrent: reading, restoring and partially resetting the
states of recurrent links."""
import numpy
import pytest

import chainer_core
import chainer_core.links as L

from chainer_rl import recurrent

to_host = chainer_core.backend.get_device('@numpy').send


class Model(recurrent.RecurrentChainMixin, chainer_core.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.lstm = L.LSTM(2, 3)
            self.out = L.Linear(3, 1)

    def forward(self, x):
        return self.out(self.lstm(x))


def _x(device, batch=2):
    rng = numpy.random.RandomState(0)
    return device.send(rng.uniform(-1, 1, (batch, 2)).astype(numpy.float32))


def test_state_kept_and_state_reset(device):
    numpy.random.seed(0)
    model = Model()
    model.to_device(device)
    x = _x(device)
    model(x)
    h = to_host(model.lstm.h.array).copy()
    with recurrent.state_kept(model):
        model(x)
        assert not numpy.allclose(to_host(model.lstm.h.array), h)
    numpy.testing.assert_array_equal(to_host(model.lstm.h.array), h)
    with recurrent.state_reset(model):
        assert model.lstm.h is None and model.lstm.c is None
        model(x)
    numpy.testing.assert_array_equal(to_host(model.lstm.h.array), h)


def test_reset_with_mask_equals_fresh_start(device):
    numpy.random.seed(0)
    model = Model()
    model.to_device(device)
    x = _x(device)
    model(x)
    model(x)
    recurrent.reset_recurrent_state(model, [False, True])
    c = to_host(model.lstm.c.array)
    assert (c[1] == 0).all() and (c[0] != 0).all()
    y = to_host(model(x).array)
    # Row 1 behaves as after a full reset, row 0 keeps its history.
    fresh = Model()
    fresh.copyparams(model)
    fresh.to_device(device)
    y_fresh = to_host(fresh(x).array)
    numpy.testing.assert_allclose(y[1], y_fresh[1], rtol=1e-5, atol=1e-6)
    assert not numpy.allclose(y[0], y_fresh[0])


def test_get_set_state_round_trip_and_push_pop():
    numpy.random.seed(0)
    model = Model()
    x = _x(chainer_core.get_device('@numpy'))
    model(x)
    state = recurrent.get_recurrent_state(model)
    assert set(state) == {'lstm'}
    c, h = state['lstm']
    model.push_state()
    assert model.lstm.h is None
    model(x)
    model.pop_state()
    assert model.lstm.h is h and model.lstm.c is c
    model.push_and_keep_state()
    assert model.lstm.h is h
    model.pop_state()
    with pytest.raises(RuntimeError, match='pop_state'):
        model.pop_state()
    model.reset_state()
    assert model.lstm.h is None
    recurrent.set_recurrent_state(model, state)
    assert model.lstm.h is h


def test_plain_links_and_sequential():
    assert not recurrent.is_recurrent(L.Linear(2, 2))
    seq = chainer_core.Sequential(L.Linear(2, 2), L.StatefulGRU(2, 2))
    assert recurrent.is_recurrent(seq)
    seq(numpy.ones((3, 2), numpy.float32))
    state = recurrent.get_recurrent_state(seq)
    assert state['1'].shape == (3, 2)
    with recurrent.state_reset(seq):
        assert seq[1].h is None
    assert seq[1].h is state['1']
    with recurrent.state_kept(L.Linear(2, 2)):
        pass


def test_mask_recurrent_state_values_and_errors():
    state = {'a': (numpy.ones((2, 3), numpy.float32), None)}
    masked = recurrent.mask_recurrent_state(state, [True, False])
    numpy.testing.assert_array_equal(masked['a'][0], [[0, 0, 0], [1, 1, 1]])
    assert masked['a'][1] is None
    with pytest.raises(ValueError, match='mask_recurrent_state'):
        recurrent.mask_recurrent_state(numpy.ones((3, 1)), [True, False])
