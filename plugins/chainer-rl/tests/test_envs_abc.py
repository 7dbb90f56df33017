"""chainer_rl.envs.ABC: the dynamics of the tiny test task."""
import gymnasium
import numpy
import pytest

from chainer_rl.envs import ABC


def _one_hot(i, n):
    v = numpy.zeros(n, dtype=numpy.float32)
    v[i] = 1
    return v


def test_correct_sequence_gives_reward_and_terminates():
    env = ABC(size=3, deterministic=True)
    assert env.action_space == gymnasium.spaces.Discrete(3)
    assert env.observation_space.shape == (5,)
    obs, info = env.reset(seed=0)
    numpy.testing.assert_array_equal(obs, _one_hot(0, 5))
    results = [env.step(a) for a in (0, 1, 2)]
    assert [r[1] for r in results] == [0.0, 0.0, 1.0]
    assert [r[2] for r in results] == [False, False, True]
    assert [r[3] for r in results] == [False, False, False]
    for i, r in enumerate(results):
        numpy.testing.assert_array_equal(r[0], _one_hot(i + 1, 5))
    with pytest.raises(RuntimeError, match='reset'):
        env.step(0)


def test_wrong_action_terminates_with_zero_reward():
    env = ABC(size=2, deterministic=True)
    env.reset()
    obs, reward, terminated, truncated, _ = env.step(1)
    assert (reward, terminated, truncated) == (0.0, True, False)
    numpy.testing.assert_array_equal(obs, _one_hot(2, 4))


def test_non_episodic_restarts_and_time_limit_truncates():
    env = ABC(size=2, episodic=False, deterministic=True, time_limit=4)
    env.reset()
    steps = [env.step(a) for a in (0, 1, 1, 0)]
    assert [s[1] for s in steps] == [0.0, 1.0, 0.0, 0.0]
    assert [s[2] for s in steps] == [False] * 4
    assert [s[3] for s in steps] == [False, False, False, True]
    # After the wrong action (1 in state 0) the state stays 0.
    numpy.testing.assert_array_equal(steps[2][0], _one_hot(0, 4))


def test_continuous_actions_deterministic_take_argmax():
    env = ABC(size=2, discrete=False, deterministic=True)
    assert env.action_space.shape == (2,)
    env.reset()
    assert env.step(numpy.array([0.9, -0.2], numpy.float32))[1:3] == (0.0,
                                                                       False)
    assert env.step(numpy.array([-0.5, 0.3], numpy.float32))[1:3] == (1.0,
                                                                       True)


def test_continuous_actions_stochastic_follow_softmax():
    env = ABC(size=2, discrete=False)
    env.reset(seed=0)
    correct = 0
    for _ in range(2000):
        env.reset()
        correct += env.step(numpy.array([1.0, -1.0], numpy.float32))[2] is \
            False
    # P(action 0) = e / (e + 1/e) = 0.8808 on logits clipped to [-1, 1].
    assert abs(correct / 2000 - 0.8808) < 0.03


def test_partially_observable_deterministic_alternates_shift():
    env = ABC(size=2, partially_observable=True, deterministic=True)
    first = [env.reset()[0] for _ in range(3)]
    numpy.testing.assert_array_equal(first[0], _one_hot(0, 4))
    numpy.testing.assert_array_equal(first[1], _one_hot(1, 4))
    numpy.testing.assert_array_equal(first[2], _one_hot(0, 4))
    # 4th episode, shifted: state 0 shows as index 1, state 1 as index 2.
    env.reset()
    obs = env.step(0)[0]
    numpy.testing.assert_array_equal(obs, _one_hot(2, 4))


def test_partially_observable_random_shift_is_seeded():
    env = ABC(partially_observable=True)
    a = [int(numpy.argmax(env.reset(seed=s)[0])) for s in range(20)]
    b = [int(numpy.argmax(env.reset(seed=s)[0])) for s in range(20)]
    assert a == b and set(a) == {0, 1}


def test_bad_arguments():
    with pytest.raises(ValueError, match='ABC: size'):
        ABC(size=0)
    with pytest.raises(ValueError, match='ABC: time_limit'):
        ABC(time_limit=0)
    env = ABC()
    with pytest.raises(RuntimeError, match='reset'):
        env.step(0)
    env.reset()
    with pytest.raises(ValueError, match='ABC.step'):
        env.step(0.5)
    env2 = ABC(discrete=False)
    env2.reset()
    with pytest.raises(ValueError, match=r'shape \(2,\)'):
        env2.step(numpy.zeros(3))
