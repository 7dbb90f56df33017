"""chainer_rl.action_value: values against NumPy, gradients, indexing and
argument checks, on every device."""
import warnings

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import gradient_check

from chainer_rl import action_value

from array_testing import host


Q = numpy.array([[1.0, 3.0, 2.0],
                 [0.5, -1.0, 4.0]], dtype=numpy.float32)


def test_discrete_values(device):
    q = chainer.Variable(device.send(Q))
    av = action_value.DiscreteActionValue(q)
    assert av.n_actions == 3
    greedy = host(av.greedy_actions)
    assert greedy.dtype == numpy.int32
    numpy.testing.assert_array_equal(greedy, [1, 2])
    numpy.testing.assert_allclose(host(av.max), [3.0, 4.0])
    numpy.testing.assert_allclose(
        host(av.evaluate_actions(numpy.array([0, 1]))), [1.0, -1.0])
    numpy.testing.assert_allclose(
        host(av.compute_advantage(numpy.array([0, 1]))), [-2.0, -5.0])
    numpy.testing.assert_allclose(
        host(av.compute_double_advantage(numpy.array([2, 0]),
                                         numpy.array([0, 2]))),
        [1.0, -3.5])
    # Boltzmann expectation with beta = 2, by hand.
    w = numpy.exp(2 * Q.astype(numpy.float64))
    expected = (w * Q).sum(1) / w.sum(1)
    numpy.testing.assert_allclose(host(av.compute_expectation(2.0)),
                                  expected, rtol=1e-5)
    assert av.params == (av.q_values,)


def test_discrete_max_backpropagates(device):
    q = chainer.Variable(device.send(Q))
    av = action_value.DiscreteActionValue(q)
    # Computed lazily inside no_backprop_mode, max still backpropagates.
    with chainer.no_backprop_mode():
        m = av.max
    F.sum(m).backward()
    numpy.testing.assert_array_equal(host(q.grad), [[0, 1, 0], [0, 0, 1]])


def test_discrete_getitem_keeps_batch_axis(device):
    av = action_value.DiscreteActionValue(device.send(Q))
    one = av[1]
    assert one.q_values.shape == (1, 3)
    numpy.testing.assert_array_equal(host(one.greedy_actions), [2])
    last = av[-1]
    numpy.testing.assert_array_equal(host(last.q_values), Q[1:])
    both = av[numpy.array([1, 0])]
    numpy.testing.assert_array_equal(host(both.greedy_actions), [2, 1])


def test_discrete_epsilon_greedy_is_seeded():
    av = action_value.DiscreteActionValue(Q[:1])
    numpy.random.seed(0)
    picks = [int(host(av.sample_epsilon_greedy_actions(0.5))[0])
             for _ in range(400)]
    # Greedy is 1; the random half spreads over 0, 1, 2.
    share_greedy = picks.count(1) / 400
    assert 0.58 < share_greedy < 0.75
    assert set(picks) == {0, 1, 2}
    assert host(av.sample_epsilon_greedy_actions(0.0))[0] == 1
    with pytest.raises(ValueError, match='batch of one'):
        action_value.DiscreteActionValue(Q).sample_epsilon_greedy_actions(0.1)


def test_discrete_checks_arguments():
    with pytest.raises(ValueError, match='DiscreteActionValue: q_values'):
        action_value.DiscreteActionValue(Q[0])
    with pytest.raises(TypeError, match='q_values must hold floats'):
        action_value.DiscreteActionValue(Q.astype(numpy.int32))
    with pytest.raises(TypeError, match='q_values must be a Variable'):
        action_value.DiscreteActionValue([[1.0, 2.0]])
    av = action_value.DiscreteActionValue(Q)
    with pytest.raises(TypeError, match='evaluate_actions: actions must be '
                                        'integer'):
        av.evaluate_actions(numpy.array([0.0, 1.0]))
    with pytest.raises(ValueError, match=r'actions must have shape \(2,\)'):
        av.evaluate_actions(numpy.array([0, 1, 2]))


def test_discrete_repr_formats():
    av = action_value.DiscreteActionValue(
        Q, q_values_formatter=lambda q: numpy.round(q).astype(int).tolist())
    assert repr(av) == ('DiscreteActionValue greedy_actions:[1 2] '
                        'q_values:[[1, 3, 2], [0, -1, 4]]')


# Distributional (C51): 2 states, 2 actions, 3 atoms.
Z = numpy.array([-1.0, 0.0, 2.0], dtype=numpy.float32)
P = numpy.array([[[0.2, 0.5, 0.3], [0.1, 0.1, 0.8]],
                 [[0.6, 0.2, 0.2], [0.5, 0.4, 0.1]]], dtype=numpy.float32)
# Expected returns: state 0: 0.4, 1.5; state 1: -0.2, -0.3.


def test_distributional_values(device):
    av = action_value.DistributionalDiscreteActionValue(
        chainer.Variable(device.send(P)), Z)
    numpy.testing.assert_allclose(host(av.q_values),
                                  [[0.4, 1.5], [-0.2, -0.3]], atol=1e-6)
    numpy.testing.assert_array_equal(host(av.greedy_actions), [1, 0])
    numpy.testing.assert_allclose(host(av.max), [1.5, -0.2], atol=1e-6)
    numpy.testing.assert_allclose(host(av.max_as_distribution),
                                  [P[0, 1], P[1, 0]])
    numpy.testing.assert_allclose(
        host(av.evaluate_actions_as_distribution(numpy.array([0, 1]))),
        [P[0, 0], P[1, 1]])
    numpy.testing.assert_allclose(
        host(av.evaluate_actions(numpy.array([0, 1]))), [0.4, -0.3],
        atol=1e-6)
    assert av.params == (av.q_dist,)
    sub = av[1]
    assert sub.q_dist.shape == (1, 2, 3)
    numpy.testing.assert_array_equal(host(sub.greedy_actions), [0])


def test_distributional_q_values_gradient(device):
    rng = numpy.random.RandomState(1)
    p = rng.uniform(0.1, 1, (2, 2, 3))
    gy = rng.standard_normal((2, 2))
    z = Z.astype(numpy.float64)

    def f(p):
        return action_value.DistributionalDiscreteActionValue(p, z).q_values

    gradient_check.check_backward(f, device.send(p), device.send(gy),
                                  dtype=numpy.float64)


def test_distributional_checks_arguments():
    with pytest.raises(ValueError, match='z_values must have shape'):
        action_value.DistributionalDiscreteActionValue(P, Z[:2])
    with pytest.raises(TypeError, match='z_values must be an array'):
        action_value.DistributionalDiscreteActionValue(
            P, chainer.Variable(Z))
    with pytest.raises(ValueError, match='q_dist must have 3 dimensions'):
        action_value.DistributionalDiscreteActionValue(P[0], Z)


def test_quantile_values(device):
    # (batch 2, taus 3, actions 2)
    quantiles = numpy.array([[[0.0, 1.0], [1.0, 2.0], [2.0, 6.0]],
                             [[-1.0, 0.0], [0.0, 0.0], [4.0, 0.0]]],
                            dtype=numpy.float32)
    qv = chainer.Variable(device.send(quantiles))
    av = action_value.QuantileDiscreteActionValue(qv)
    numpy.testing.assert_allclose(host(av.q_values), [[1.0, 3.0],
                                                      [1.0, 0.0]])
    numpy.testing.assert_array_equal(host(av.greedy_actions), [1, 0])
    got = av.evaluate_actions_as_quantiles(numpy.array([0, 1]))
    numpy.testing.assert_array_equal(host(got), [[0, 1, 2], [0, 0, 0]])
    F.sum(got).backward()
    expected_grad = numpy.zeros_like(quantiles)
    expected_grad[0, :, 0] = 1
    expected_grad[1, :, 1] = 1
    numpy.testing.assert_array_equal(host(qv.grad), expected_grad)
    assert av[0].quantiles.shape == (1, 3, 2)
    assert av.params == (av.quantiles,)


def _quadratic_numpy(a, mu, mat, v):
    d = a - mu
    return -0.5 * numpy.einsum('bi,bij,bj->b', d, mat, d) + v.reshape(-1)


def _quadratic_inputs(rng, dtype=numpy.float32):
    mu = rng.standard_normal((3, 2)).astype(dtype)
    lower = rng.standard_normal((3, 2, 2)).astype(dtype)
    mat = numpy.matmul(lower, lower.transpose(0, 2, 1)) + numpy.eye(
        2, dtype=dtype)
    v = rng.standard_normal((3, 1)).astype(dtype)
    return mu, mat, v


def test_quadratic_values(device):
    rng = numpy.random.RandomState(0)
    mu, mat, v = _quadratic_inputs(rng)
    av = action_value.QuadraticActionValue(
        *(chainer.Variable(device.send(a)) for a in (mu, mat, v)))
    actions = rng.standard_normal((3, 2)).astype(numpy.float32)
    numpy.testing.assert_allclose(host(av.evaluate_actions(actions)),
                                  _quadratic_numpy(actions, mu, mat, v),
                                  rtol=1e-5)
    numpy.testing.assert_allclose(host(av.greedy_actions), mu)
    numpy.testing.assert_allclose(host(av.max), v.reshape(-1))
    numpy.testing.assert_allclose(
        host(av.compute_advantage(actions)),
        _quadratic_numpy(actions, mu, mat, v) - v.reshape(-1), rtol=1e-5,
        atol=1e-6)
    assert len(av.params) == 3
    assert av[2].mu.shape == (1, 2)


def test_quadratic_bounds_clip_greedy(device):
    rng = numpy.random.RandomState(0)
    mu, mat, v = _quadratic_inputs(rng)
    mu[0] = [5.0, -5.0]
    low = numpy.array([-1.0, -0.5], dtype=numpy.float32)
    high = numpy.array([1.0, 0.5], dtype=numpy.float32)
    av = action_value.QuadraticActionValue(
        *(device.send(a) for a in (mu, mat, v)), min_action=low,
        max_action=high)
    greedy = numpy.clip(mu, low, high)
    numpy.testing.assert_allclose(host(av.greedy_actions), greedy)
    numpy.testing.assert_allclose(host(av.max),
                                  _quadratic_numpy(greedy, mu, mat, v),
                                  rtol=1e-5)
    # Clipping costs value in the first state only.
    assert host(av.max)[0] < v[0, 0]


def test_quadratic_gradient(device):
    rng = numpy.random.RandomState(2)
    mu, mat, v = _quadratic_inputs(rng, numpy.float64)
    actions = rng.standard_normal((3, 2))
    gy = rng.standard_normal(3)

    def f(mu, mat, v):
        av = action_value.QuadraticActionValue(mu, mat, v)
        return av.evaluate_actions(device.send(actions))

    gradient_check.check_backward(
        f, tuple(device.send(a) for a in (mu, mat, v)), device.send(gy),
        dtype=numpy.float64)


def test_quadratic_checks_arguments():
    mu, mat, v = _quadratic_inputs(numpy.random.RandomState(0))
    with pytest.raises(ValueError, match='QuadraticActionValue: mat must '
                                         'have shape'):
        action_value.QuadraticActionValue(mu, mat[:, :1], v)
    with pytest.raises(ValueError, match='v must have shape'):
        action_value.QuadraticActionValue(mu, mat, v[:2])
    with pytest.raises(ValueError, match='min_action must be a scalar'):
        action_value.QuadraticActionValue(mu, mat, v,
                                          min_action=numpy.zeros(3))
    av = action_value.QuadraticActionValue(mu, mat, v)
    with pytest.raises(ValueError, match='evaluate_actions: actions must '
                                         'have shape'):
        av.evaluate_actions(numpy.zeros((3, 3), numpy.float32))


def test_single_action_value():
    calls = []

    def evaluator(a):
        calls.append(a)
        return -(a - 2.0) ** 2

    av = action_value.SingleActionValue(
        evaluator, maximizer=lambda: numpy.full((2,), 1.5))
    numpy.testing.assert_allclose(av.greedy_actions, [1.5, 1.5])
    numpy.testing.assert_allclose(av.max, [-0.25, -0.25])
    numpy.testing.assert_allclose(
        av.compute_advantage(numpy.array([2.0, 0.0])), [0.25, -3.75])
    numpy.testing.assert_allclose(
        av.compute_double_advantage(numpy.array([2.0, 0.0]),
                                    numpy.array([0.0, 2.0])),
        [4.0, -4.0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        assert av.params == ()
    assert caught
    with pytest.raises(NotImplementedError, match='cannot be indexed'):
        av[0]
    with pytest.raises(TypeError, match='evaluator must be callable'):
        action_value.SingleActionValue(3)
    with pytest.raises(RuntimeError, match='no maximizer'):
        action_value.SingleActionValue(evaluator).greedy_actions


def test_action_value_base_is_abstract():
    with pytest.raises(TypeError):
        action_value.ActionValue()
