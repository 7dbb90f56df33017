"""Explorers against hand-computed cases."""
import numpy
import pytest

import chainer_core

from chainer_rl import explorers


def _never():
    raise AssertionError('greedy action requested')


def test_greedy():
    assert explorers.Greedy().select_action(0, lambda: 3) == 3


def test_linear_decay_epsilon_values():
    e = explorers.LinearDecayEpsilonGreedy(1.0, 0.1, 100, lambda: 0)
    # epsilon(t) = 1.0 + (0.1 - 1.0) * t / 100 until t = 100
    assert e.compute_epsilon(0) == 1.0
    assert e.compute_epsilon(50) == pytest.approx(0.55)
    assert e.compute_epsilon(90) == pytest.approx(0.19)
    assert e.compute_epsilon(100) == 0.1
    assert e.compute_epsilon(10 ** 6) == 0.1
    e.select_action(25, lambda: 1)
    assert e.get_statistics() == [('epsilon', pytest.approx(0.775))]
    assert explorers.LinearDecayEpsilonGreedy(
        0.5, 0.2, 0, lambda: 0).compute_epsilon(0) == 0.2


def test_exponential_decay_epsilon_values():
    e = explorers.ExponentialDecayEpsilonGreedy(1.0, 0.1, 0.5, lambda: 0)
    assert [e.compute_epsilon(t) for t in (0, 1, 2, 3, 4)] == [
        1.0, 0.5, 0.25, 0.125, 0.1]


def test_epsilon_one_and_zero():
    e = explorers.ConstantEpsilonGreedy(1.0, lambda: 7)
    assert e.select_action(0, _never) == 7
    e = explorers.ConstantEpsilonGreedy(0.0, lambda: 7)
    assert e.select_action(0, lambda: 2) == 2
    assert e.get_statistics() == [('epsilon', 0.0)]


def test_constant_epsilon_frequency_of_random_actions():
    e = explorers.ConstantEpsilonGreedy(0.3, lambda: -1)
    numpy.random.seed(0)
    n_random = sum(e.select_action(t, lambda: 1) == -1 for t in range(5000))
    # Binomial(5000, 0.3): mean 1500, sd ~32.
    assert abs(n_random - 1500) < 130
    # Same seed, same sequence.
    numpy.random.seed(0)
    again = sum(e.select_action(t, lambda: 1) == -1 for t in range(5000))
    assert again == n_random


def test_epsilon_argument_checks():
    with pytest.raises(ValueError, match='ConstantEpsilonGreedy: epsilon'):
        explorers.ConstantEpsilonGreedy(1.5, lambda: 0)
    with pytest.raises(TypeError, match='random_action_func'):
        explorers.ConstantEpsilonGreedy(0.1, 3)
    with pytest.raises(ValueError, match='decay_steps'):
        explorers.LinearDecayEpsilonGreedy(1.0, 0.1, -1, lambda: 0)


class _AV(object):
    def __init__(self, q):
        self.q_values = q


def test_boltzmann_frequencies(device):
    q = device.send(numpy.array([[0.0, numpy.log(3.0)]], numpy.float32))
    b = explorers.Boltzmann(T=1.0)
    numpy.random.seed(0)
    picks = [b.select_action(0, _never, action_value=_AV(q))
             for _ in range(4000)]
    # softmax([0, log 3]) = [0.25, 0.75]
    assert abs(numpy.mean(picks) - 0.75) < 0.03
    # A high temperature flattens it: softmax([0, log 3] / 100) ~ [0.497,
    # 0.503].
    hot = explorers.Boltzmann(T=100.0)
    picks = [hot.select_action(0, _never,
                               action_value=_AV(chainer_core.Variable(q)))
             for _ in range(4000)]
    assert abs(numpy.mean(picks) - 0.5027) < 0.03


def test_boltzmann_checks():
    with pytest.raises(ValueError, match='Boltzmann: T'):
        explorers.Boltzmann(T=0)
    with pytest.raises(ValueError, match='action_value'):
        explorers.Boltzmann().select_action(0, lambda: 0)


def test_additive_gaussian_matches_seeded_draws_and_clips():
    e = explorers.AdditiveGaussian(scale=0.5)
    a = numpy.array([0.1, -0.2, 0.3], numpy.float32)
    numpy.random.seed(3)
    out = e.select_action(0, lambda: a)
    numpy.random.seed(3)
    expected = a + numpy.random.normal(scale=0.5, size=3)
    assert out.dtype == numpy.float32
    numpy.testing.assert_allclose(out, expected, rtol=1e-6)
    clipped = explorers.AdditiveGaussian(scale=10.0, low=-1.0, high=1.0)
    numpy.random.seed(0)
    outs = numpy.array([clipped.select_action(0, lambda: a)
                        for _ in range(50)])
    assert outs.min() == -1.0 and outs.max() == 1.0


def test_additive_ou_recurrence():
    mu, theta, sigma = 0.5, 0.2, 0.3
    e = explorers.AdditiveOU(mu=mu, theta=theta, sigma=sigma,
                             start_with_mu=True)
    a = numpy.zeros(2, numpy.float32)
    numpy.random.seed(0)
    outs = [e.select_action(t, lambda: a) for t in range(4)]
    numpy.random.seed(0)
    x = numpy.full(2, mu)
    expected = [x.copy()]
    for _ in range(3):
        x = x + theta * (mu - x) + sigma * numpy.random.normal(size=2)
        expected.append(x.copy())
    numpy.testing.assert_allclose(outs, expected, rtol=1e-5)


def test_additive_ou_stationary_start():
    # sigma / sqrt(2 theta - theta^2) = 0.3 / sqrt(0.3 - 0.0225) = 0.5696
    numpy.random.seed(0)
    starts = numpy.array([
        explorers.AdditiveOU(theta=0.15, sigma=0.3).select_action(
            0, lambda: numpy.zeros(1, numpy.float32))[0]
        for _ in range(4000)])
    assert abs(starts.std() - 0.5696) < 0.03
    assert abs(starts.mean()) < 0.03
    with pytest.raises(ValueError, match='AdditiveOU: theta'):
        explorers.AdditiveOU(theta=0.0)
