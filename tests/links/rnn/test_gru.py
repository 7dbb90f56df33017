"""StatelessGRU, StatefulGRU and GRU: forward against NumPy formulas with
the links' own parameters, the first stateful step, state handling,
initialization and serialization."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.links as L
from chainer_core import gradient_check

from . import arr, close, randomize, roundtrip, sigmoid, uniform

F64 = numpy.float64
NAMES = ('U', 'U_r', 'U_z', 'W', 'W_r', 'W_z')


def _make(cls, *args, **kwargs):
    with chainer.using_config('dtype', F64):
        return cls(*args, **kwargs)


def _lin(link, name, v):
    sub = getattr(link, name)
    return v @ arr(sub.W).T + arr(sub.b)


def _gru_ref(link, h, x):
    if h is None:
        z = sigmoid(_lin(link, 'W_z', x))
        return z * numpy.tanh(_lin(link, 'W', x))
    r = sigmoid(_lin(link, 'W_r', x) + _lin(link, 'U_r', h))
    z = sigmoid(_lin(link, 'W_z', x) + _lin(link, 'U_z', h))
    h_bar = numpy.tanh(_lin(link, 'W', x) + _lin(link, 'U', r * h))
    return (1 - z) * h + z * h_bar


class TestStatelessGRU:

    def test_step_matches_the_formula(self):
        rng = numpy.random.RandomState(0)
        link = randomize(_make(L.StatelessGRU, 3, 4))
        h, x = uniform(rng, 2, 4), uniform(rng, 2, 3)
        close(link(h, x), _gru_ref(link, h, x))

    def test_parameters(self):
        link = _make(L.StatelessGRU, 3, 4)
        for name in NAMES:
            sub = getattr(link, name)
            assert sub.W.shape == ((4, 4) if name.startswith('U')
                                   else (4, 3))
            numpy.testing.assert_array_equal(sub.b.array, 0)

    def test_lazy_in_size(self):
        link = L.StatelessGRU(None, 4)
        y = link(numpy.zeros((2, 4), numpy.float32),
                 numpy.zeros((2, 5), numpy.float32))
        assert y.shape == (2, 4)
        assert link.W.W.shape == (4, 5) and link.U.W.shape == (4, 4)

    def test_gradients(self):
        rng = numpy.random.RandomState(1)
        link = randomize(_make(L.StatelessGRU, 2, 3))
        gradient_check.check_backward(
            link, (uniform(rng, 2, 3), uniform(rng, 2, 2)),
            uniform(rng, 2, 3), params=tuple(link.params()), atol=1e-7,
            rtol=1e-6)


@pytest.mark.parametrize('cls', [L.StatefulGRU, L.GRU])
class TestStatefulGRU:

    def test_steps_match_the_formula(self, cls):
        rng = numpy.random.RandomState(0)
        link = randomize(_make(cls, 3, 4))
        h = None
        for _ in range(3):
            x = uniform(rng, 2, 3)
            h = _gru_ref(link, h, x)
            close(link(x), h)
            close(link.h, h)

    def test_first_step_ignores_the_reset_path(self, cls):
        rng = numpy.random.RandomState(1)
        link = randomize(_make(cls, 3, 4))
        x = uniform(rng, 2, 3)
        y = link(x)
        # h' = z * h_bar from the input alone: W_r, U_* play no part.
        for name in ('W_r', 'U_r', 'U_z', 'U'):
            getattr(link, name).W.array[...] = 7
        link.reset_state()
        close(link(x), y)

    def test_set_and_reset_state(self, cls):
        rng = numpy.random.RandomState(2)
        link = randomize(_make(cls, 3, 4))
        h, x = uniform(rng, 2, 4), uniform(rng, 2, 3)
        link.set_state(chainer.Variable(h))
        close(link(x), _gru_ref(link, h, x))
        link.reset_state()
        assert link.h is None
        with pytest.raises(TypeError, match='Variable'):
            link.set_state(h)

    def test_bias_init(self, cls):
        link = _make(cls, 3, 4)
        for name in NAMES:
            numpy.testing.assert_array_equal(getattr(link, name).b.array, 0)
        link = _make(cls, 3, 4, init=0.5, inner_init=-0.5, bias_init=0.25)
        for name in NAMES:
            sub = getattr(link, name)
            numpy.testing.assert_array_equal(
                sub.W.array, -0.5 if name.startswith('U') else 0.5)
            numpy.testing.assert_array_equal(sub.b.array, 0.25)

    def test_serialization(self, cls, tmp_path):
        link = randomize(_make(cls, 3, 4))
        fresh = _make(cls, 3, 4)
        keys = roundtrip(tmp_path, link, fresh)
        assert keys == sorted(n + '/' + p for n in NAMES for p in 'Wb')
        x = numpy.random.RandomState(3).uniform(-1, 1, (2, 3))
        close(fresh(x), link(x))

    def test_to_device_moves_the_state(self, cls):
        link = _make(cls, 3, 4)
        link(numpy.zeros((2, 3)))
        link.to_device('@numpy')
        assert isinstance(link.h.array, numpy.ndarray)


class TestGRUAlias:

    def test_is_stateful(self):
        assert issubclass(L.GRU, L.StatefulGRU)

    @pytest.mark.parametrize('n_args', [0, 2, 3])
    def test_wrong_number_of_arguments(self, n_args):
        link = _make(L.GRU, 3, 4)
        args = [numpy.zeros((2, 3))] * n_args
        with pytest.raises(ValueError, match='StatelessGRU' if n_args == 2
                           else 'argument'):
            link(*args)
