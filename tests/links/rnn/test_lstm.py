"""LSTM (stateful), StatelessLSTM and StatefulPeepholeLSTM: forward against
NumPy formulas with the links' own parameters, lazy input size,
initialization, state handling and serialization."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.links as L
from chainer_core import gradient_check

from . import arr, close, randomize, roundtrip, sigmoid, uniform

F64 = numpy.float64


def _make(cls, *args, **kwargs):
    with chainer.using_config('dtype', F64):
        return cls(*args, **kwargs)


def _lstm_ref(link, c, h, x):
    """One step with gates interleaved per unit (a, i, f, o)."""
    z = x @ arr(link.upward.W).T + arr(link.upward.b)
    if h is not None:
        z = z + h @ arr(link.lateral.W).T
    a, i, f, o = (z.reshape(len(x), -1, 4)[:, :, k] for k in range(4))
    c = numpy.tanh(a) * sigmoid(i) + sigmoid(f) * c
    return c, sigmoid(o) * numpy.tanh(c)


class TestLSTM:

    def test_steps_match_the_formula(self):
        rng = numpy.random.RandomState(0)
        link = randomize(_make(L.LSTM, 3, 4))
        c, h = numpy.zeros((2, 4)), None
        for _ in range(3):
            x = uniform(rng, 2, 3)
            y = link(x)
            c, h = _lstm_ref(link, c, h, x)
            close(y, h)
            close(link.c, c)
            close(link.h, h)

    def test_shrinking_batch_keeps_the_ended_rows(self):
        rng = numpy.random.RandomState(1)
        link = randomize(_make(L.LSTM, 3, 4))
        x0, x1 = uniform(rng, 3, 3), uniform(rng, 2, 3)
        link(x0)
        c0, h0 = arr(link.c), arr(link.h)
        y = link(x1)
        assert y.shape == (2, 4)
        assert link.c.shape == (3, 4) and link.h.shape == (3, 4)
        c, h = _lstm_ref(link, c0[:2], h0[:2], x1)
        close(y, h)
        close(link.h.array[:2], h)
        close(link.c.array[:2], c)
        numpy.testing.assert_array_equal(link.h.array[2:], h0[2:])
        numpy.testing.assert_array_equal(link.c.array[2:], c0[2:])

    def test_growing_batch_is_refused(self):
        link = _make(L.LSTM, 3, 4)
        link(numpy.zeros((2, 3)))
        with pytest.raises(TypeError, match='batch size'):
            link(numpy.zeros((3, 3)))

    def test_reset_and_set_state(self):
        rng = numpy.random.RandomState(2)
        link = randomize(_make(L.LSTM, 3, 4))
        x = uniform(rng, 2, 3)
        link(x)
        link.reset_state()
        assert link.c is None and link.h is None
        close(link(x), _lstm_ref(link, numpy.zeros((2, 4)), None, x)[1])
        c, h = uniform(rng, 2, 4), uniform(rng, 2, 4)
        link.set_state(chainer.Variable(c), chainer.Variable(h))
        close(link(x), _lstm_ref(link, c, h, x)[1])
        with pytest.raises(TypeError, match='Variable'):
            link.set_state(c, h)

    @pytest.mark.parametrize('args', [(4,), (None, 4)])
    def test_lazy_in_size(self, args):
        link = L.LSTM(*args)
        assert link.upward.W.array is None
        assert link.lateral.W.shape == (16, 4)
        y = link(numpy.zeros((2, 5), numpy.float32))
        assert y.shape == (2, 4)
        assert link.upward.W.shape == (16, 5)
        # Initialised by the LSTM's own initializers, not left at zero.
        assert numpy.abs(link.upward.W.array).max() > 0

    def test_lazy_in_size_flattens_trailing_axes(self):
        link = L.LSTM(4)
        link(numpy.zeros((2, 2, 3), numpy.float32))
        assert link.upward.W.shape == (16, 6)

    def test_default_initialization(self):
        link = _make(L.LSTM, 30, 20)
        gates = link.upward.b.array.reshape(20, 4)
        numpy.testing.assert_array_equal(gates[:, [0, 1, 3]], 0)
        numpy.testing.assert_array_equal(gates[:, 2], 1)
        assert link.lateral.b is None
        # LeCun normal: standard deviation sqrt(1 / fan_in).
        for W, fan_in in ((link.upward.W, 30), (link.lateral.W, 20)):
            assert abs(W.array.std() - numpy.sqrt(1 / fan_in)) < \
                0.2 * numpy.sqrt(1 / fan_in)

    def test_initializers(self):
        link = _make(L.LSTM, 3, 2, lateral_init=0.5, upward_init=-0.25,
                     bias_init=2, forget_bias_init=-3)
        numpy.testing.assert_array_equal(link.lateral.W.array, 0.5)
        numpy.testing.assert_array_equal(link.upward.W.array, -0.25)
        gates = link.upward.b.array.reshape(2, 4)
        numpy.testing.assert_array_equal(gates[:, [0, 1, 3]], 2)
        numpy.testing.assert_array_equal(gates[:, 2], -3)

    def test_gradients(self):
        rng = numpy.random.RandomState(3)
        link = randomize(_make(L.LSTM, 3, 2))
        xs = (uniform(rng, 2, 3), uniform(rng, 2, 3))

        def f(x0, x1):
            link.reset_state()
            link(x0)
            return link(x1)

        gradient_check.check_backward(
            f, xs, uniform(rng, 2, 2),
            params=(link.upward.W, link.upward.b, link.lateral.W),
            atol=1e-7, rtol=1e-6)

    def test_serialization(self, tmp_path):
        link = randomize(_make(L.LSTM, 3, 4))
        fresh = _make(L.LSTM, 3, 4)
        keys = roundtrip(tmp_path, link, fresh)
        assert keys == ['lateral/W', 'upward/W', 'upward/b']
        for (name, p), (_, q) in zip(sorted(link.namedparams()),
                                     sorted(fresh.namedparams())):
            numpy.testing.assert_array_equal(p.array, q.array)

    def test_serialization_into_a_lazy_link(self, tmp_path):
        link = randomize(L.LSTM(3, 4))
        fresh = L.LSTM(4)
        roundtrip(tmp_path, link, fresh)
        numpy.testing.assert_array_equal(fresh.upward.W.array,
                                         link.upward.W.array)
        x = numpy.random.RandomState(4).uniform(-1, 1, (2, 3)).astype(
            numpy.float32)
        close(fresh(x), link(x))

    def test_to_device_moves_the_state(self):
        link = _make(L.LSTM, 3, 4)
        link(numpy.zeros((2, 3)))
        link.to_device('@numpy')
        assert isinstance(link.c.array, numpy.ndarray)
        assert isinstance(link.h.array, numpy.ndarray)


class TestStatelessLSTM:

    def test_step_matches_the_formula(self):
        rng = numpy.random.RandomState(0)
        link = randomize(_make(L.StatelessLSTM, 3, 4))
        c, h, x = uniform(rng, 2, 4), uniform(rng, 2, 4), uniform(rng, 2, 3)
        c_new, h_new = link(c, h, x)
        c_ref, h_ref = _lstm_ref(link, c, h, x)
        close(c_new, c_ref)
        close(h_new, h_ref)

    def test_none_states(self):
        rng = numpy.random.RandomState(1)
        link = randomize(_make(L.StatelessLSTM, 3, 4))
        x = uniform(rng, 2, 3)
        c_new, h_new = link(None, None, x)
        c_ref, h_ref = _lstm_ref(link, numpy.zeros((2, 4)), None, x)
        close(c_new, c_ref)
        close(h_new, h_ref)

    def test_keeps_no_state(self):
        rng = numpy.random.RandomState(2)
        link = randomize(_make(L.StatelessLSTM, 3, 4))
        args = (uniform(rng, 2, 4), uniform(rng, 2, 4), uniform(rng, 2, 3))
        first = link(*args)[1].array
        numpy.testing.assert_array_equal(link(*args)[1].array, first)

    def test_lazy_in_size(self):
        link = L.StatelessLSTM(4)
        c, h = link(None, None, numpy.zeros((2, 5), numpy.float32))
        assert link.upward.W.shape == (16, 5)
        assert c.shape == h.shape == (2, 4)


def _peephole_ref(link, c, h, x):
    z = x @ arr(link.upward.W).T + arr(link.upward.b)
    if h is not None:
        z = z + h @ arr(link.lateral.W).T
    a, i, f, o = (z.reshape(len(x), -1, 4)[:, :, k] for k in range(4))
    i = sigmoid(i + c @ arr(link.peep_i.W).T)
    f = sigmoid(f + c @ arr(link.peep_f.W).T)
    c = numpy.tanh(a) * i + f * c
    o = sigmoid(o + c @ arr(link.peep_o.W).T)
    return c, o * numpy.tanh(c)


class TestStatefulPeepholeLSTM:

    def test_steps_match_the_formula(self):
        rng = numpy.random.RandomState(0)
        link = randomize(_make(L.StatefulPeepholeLSTM, 3, 4))
        c, h = numpy.zeros((2, 4)), None
        for _ in range(3):
            x = uniform(rng, 2, 3)
            y = link(x)
            c, h = _peephole_ref(link, c, h, x)
            close(y, h)
            close(link.c, c)
        link.reset_state()
        assert link.c is None and link.h is None

    def test_parameters(self, tmp_path):
        link = randomize(_make(L.StatefulPeepholeLSTM, 3, 4))
        assert link.upward.W.shape == (16, 3)
        assert link.lateral.b is None
        for name in ('peep_i', 'peep_f', 'peep_o'):
            peep = getattr(link, name)
            assert peep.W.shape == (4, 4) and peep.b is None
        fresh = _make(L.StatefulPeepholeLSTM, 3, 4)
        keys = roundtrip(tmp_path, link, fresh)
        assert keys == ['lateral/W', 'peep_f/W', 'peep_i/W', 'peep_o/W',
                        'upward/W', 'upward/b']
        x = numpy.random.RandomState(1).uniform(-1, 1, (2, 3))
        close(fresh(x), link(x))

    def test_gradients(self):
        rng = numpy.random.RandomState(2)
        link = randomize(_make(L.StatefulPeepholeLSTM, 2, 2))
        xs = (uniform(rng, 2, 2), uniform(rng, 2, 2))

        def f(x0, x1):
            link.reset_state()
            link(x0)
            return link(x1)

        gradient_check.check_backward(
            f, xs, uniform(rng, 2, 2),
            params=tuple(link.params()), atol=1e-7, rtol=1e-6)
