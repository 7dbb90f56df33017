"""StatelessMGU and StatefulMGU against the MGU formulas in NumPy (the
layout ``[h; x]`` of the connections is Chainer's: parameters saved by
Chainer 7.8.1 give the same outputs)."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.links as L
from chainer_core import gradient_check

from . import arr, close, randomize, roundtrip, sigmoid, uniform


def _make(cls, *args):
    with chainer.using_config('dtype', numpy.float64):
        return randomize(cls(*args))


def _lin(sub, v):
    return v @ arr(sub.W).T + arr(sub.b)


def _mgu_ref(link, h, x):
    f = sigmoid(_lin(link.W_f, numpy.concatenate([h, x], 1)))
    h_bar = numpy.tanh(_lin(link.W_h, numpy.concatenate([f * h, x], 1)))
    return f * h_bar + (1 - f) * h


def test_stateless_step():
    rng = numpy.random.RandomState(0)
    link = _make(L.StatelessMGU, 3, 4)
    assert link.W_f.W.shape == (4, 7) and link.W_h.W.shape == (4, 7)
    h, x = uniform(rng, 2, 4), uniform(rng, 2, 3)
    close(link(h, x), _mgu_ref(link, h, x))


def test_stateful_steps_and_reset():
    rng = numpy.random.RandomState(1)
    link = _make(L.StatefulMGU, 3, 4)
    x1, x2 = uniform(rng, 2, 3), uniform(rng, 2, 3)
    h1 = _mgu_ref(link, numpy.zeros((2, 4)), x1)
    # The zero state has the default dtype.
    with chainer.using_config('dtype', numpy.float64):
        close(link(x1), h1)
    close(link(x2), _mgu_ref(link, h1, x2))
    link.reset_state()
    assert link.h is None
    with chainer.using_config('dtype', numpy.float64):
        close(link(x1), h1)
    h0 = uniform(rng, 2, 4)
    link.set_state(chainer.Variable(h0))
    close(link(x2), _mgu_ref(link, h0, x2))


def test_stateful_zero_state_has_the_default_dtype():
    link = L.StatefulMGU(3, 4)
    y = link(numpy.ones((2, 3), numpy.float32))
    assert y.dtype == numpy.float32 and link.W_f.W.dtype == numpy.float32


def test_set_state_needs_a_variable():
    with pytest.raises(TypeError, match='StatefulMGU.set_state'):
        L.StatefulMGU(3, 4).set_state(numpy.zeros((2, 4)))


def test_gradients():
    rng = numpy.random.RandomState(2)
    link = _make(L.StatelessMGU, 3, 4)
    h, x = uniform(rng, 2, 4), uniform(rng, 2, 3)
    gradient_check.check_backward(
        link, (h, x), uniform(rng, 2, 4), params=tuple(link.params()),
        eps=1e-6, atol=1e-7, rtol=1e-6)


def test_serialization(tmp_path):
    link = _make(L.StatefulMGU, 3, 4)
    keys = roundtrip(tmp_path, link, L.StatefulMGU(3, 4))
    assert keys == ['W_f/W', 'W_f/b', 'W_h/W', 'W_h/b']


@pytest.mark.parametrize('cls', [L.StatelessMGU, L.StatefulMGU])
def test_numpy_int_sizes(cls):
    link = cls(numpy.int32(3), numpy.int64(4))
    assert link.W_f.W.shape == (4, 7)


@pytest.mark.parametrize('args,exc,match', [
    ((3.0, 4), TypeError, 'n_inputs must be an int'),
    ((3, -4), ValueError, 'n_units must be non-negative')])
def test_bad_sizes(args, exc, match):
    with pytest.raises(exc, match='StatelessMGU: ' + match):
        L.StatelessMGU(*args)
