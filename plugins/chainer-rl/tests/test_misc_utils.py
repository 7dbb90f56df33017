"""chainer_rl.misc: batching, seeding, parameter copies, sampling, env
modifiers and small utilities."""
import random
import sys

import gymnasium
import numpy
import pytest

import chainer_core
import chainer_core.links as L

from chainer_rl import misc
from chainer_rl.envs import ABC
from chainer_rl.misc import collections as rl_collections
from chainer_rl.misc import env_modifiers
from chainer_rl.misc.random import sample_n_k

to_host = chainer_core.backend.get_device('@numpy').send


def test_batch_states_with_device_and_xp(device):
    states = [numpy.array([1, 2], dtype=numpy.float32),
              numpy.array([3, 4], dtype=numpy.float32)]

    def phi(s):
        return s * 2

    for xp in (device, device.xp):
        batch = misc.batch_states(states, xp, phi)
        assert chainer_core.backend.get_device_from_array(batch) == device
        numpy.testing.assert_array_equal(to_host(batch),
                                         [[2, 4], [6, 8]])


def test_batch_states_tuple_observations():
    states = [(numpy.zeros(2, numpy.float32), numpy.int32(1)),
              (numpy.ones(2, numpy.float32), numpy.int32(2))]
    a, b = misc.batch_states(states, numpy, lambda s: s)
    numpy.testing.assert_array_equal(a, [[0, 0], [1, 1]])
    numpy.testing.assert_array_equal(b, [1, 2])


def test_batch_states_bad_xp():
    with pytest.raises(ValueError, match='batch_states: xp'):
        misc.batch_states([numpy.zeros(1)], object(), lambda s: s)


def test_set_random_seed_reproduces_every_generator(device):
    def draw():
        module = getattr(device.xp, 'random', None)
        device_draw = (to_host(module.random_sample((3,)))
                       if module is not None else None)
        return random.random(), numpy.random.rand(), device_draw

    misc.set_random_seed(7)
    first = draw()
    misc.set_random_seed(7)
    second = draw()
    misc.set_random_seed(8)
    third = draw()
    assert first[:2] == second[:2]
    assert first[:2] != third[:2]
    if first[2] is not None:
        numpy.testing.assert_array_equal(first[2], second[2])


def test_set_random_seed_rejects_bad_seed():
    with pytest.raises(TypeError, match='set_random_seed: seed'):
        misc.set_random_seed(1.5)
    with pytest.raises(ValueError, match='set_random_seed: seed'):
        misc.set_random_seed(-1)


def _linear_pair(device):
    a = L.Linear(2, 3)
    b = L.Linear(2, 3)
    a.W.array[...] = numpy.arange(6, dtype=numpy.float32).reshape(3, 2)
    a.b.array[...] = 1.0
    b.W.array[...] = 10.0
    b.b.array[...] = -1.0
    a.to_device(device)
    b.to_device(device)
    return a, b


def test_copy_param(device):
    target, source = _linear_pair(device)
    W_before = target.W.array
    misc.copy_param(target, source)
    assert target.W.array is W_before  # in place
    numpy.testing.assert_array_equal(to_host(target.W.array),
                                     numpy.full((3, 2), 10.0))
    numpy.testing.assert_array_equal(to_host(target.b.array), [-1, -1, -1])


def test_soft_copy_param(device):
    target, source = _linear_pair(device)
    misc.soft_copy_param(target, source, 0.1)
    expected = 0.9 * numpy.arange(6).reshape(3, 2) + 0.1 * 10.0
    numpy.testing.assert_allclose(to_host(target.W.array), expected,
                                  rtol=1e-6)
    numpy.testing.assert_allclose(to_host(target.b.array),
                                  [0.8, 0.8, 0.8], rtol=1e-6)


def test_copy_param_batch_normalization_statistics():
    source = L.BatchNormalization(2)
    target = L.BatchNormalization(2)
    source.avg_mean[...] = [1.0, 2.0]
    source.avg_var[...] = [3.0, 4.0]
    misc.copy_param(target, source)
    numpy.testing.assert_array_equal(target.avg_mean, [1, 2])
    numpy.testing.assert_array_equal(target.avg_var, [3, 4])
    target.avg_mean[...] = 0.0
    misc.soft_copy_param(target, source, 0.5)
    numpy.testing.assert_array_equal(target.avg_mean, [0.5, 1.0])


def test_copy_param_errors():
    with pytest.raises(ValueError, match='shape'):
        misc.copy_param(L.Linear(2, 3), L.Linear(3, 3))
    with pytest.raises(TypeError, match='copy_param: target_link'):
        misc.copy_param(object(), L.Linear(2, 3))
    with pytest.raises(ValueError, match='soft_copy_param: tau'):
        misc.soft_copy_param(L.Linear(2, 3), L.Linear(2, 3), 1.5)


@pytest.mark.parametrize('n,k', [(10, 10), (10, 3), (1000, 5), (5, 0)])
def test_sample_n_k_distinct_and_in_range(n, k):
    numpy.random.seed(0)
    for _ in range(20):
        s = sample_n_k(n, k)
        assert s.dtype == numpy.int64 and s.shape == (k,)
        assert len(set(s.tolist())) == k
        assert all(0 <= x < n for x in s)


def test_sample_n_k_uniform():
    numpy.random.seed(1)
    counts = numpy.zeros(30)
    for _ in range(3000):
        counts[sample_n_k(30, 3)] += 1
    # Each element is drawn with probability 3/30: 300 expected, sd ~16.
    assert counts.min() > 220 and counts.max() < 380


def test_sample_n_k_errors():
    with pytest.raises(ValueError, match='sample_n_k'):
        sample_n_k(3, 4)
    with pytest.raises(TypeError, match='sample_n_k: k'):
        sample_n_k(3, 1.0)


def test_random_access_queue():
    q = rl_collections.RandomAccessQueue(range(3), maxlen=4)
    q.append(3)
    q.append(4)  # drops 0
    assert list(q) == [1, 2, 3, 4] and len(q) == 4
    assert q[0] == 1 and q[-1] == 4 and q[2] == 3
    assert q.popleft() == 1
    q.append(5)
    assert [q[i] for i in range(len(q))] == [2, 3, 4, 5]
    with pytest.raises(IndexError):
        q[4]
    numpy.random.seed(0)
    assert sorted(q.sample(4)) == [2, 3, 4, 5]


def test_conjugate_gradient_solves_spd_system():
    A = numpy.array([[4.0, 1.0], [1.0, 3.0]])
    b = numpy.array([1.0, 2.0])
    x = misc.conjugate_gradient(lambda v: A.dot(v), b, max_iter=10)
    numpy.testing.assert_allclose(x, [1 / 11, 7 / 11], rtol=1e-8)


def test_is_return_code_zero():
    assert misc.is_return_code_zero([sys.executable, '-c', 'pass'])
    assert not misc.is_return_code_zero(
        [sys.executable, '-c', 'import sys; sys.exit(3)'])
    assert not misc.is_return_code_zero(['/nonexistent/command'])


def test_draw_computational_graph(tmp_path):
    x = chainer_core.Variable(numpy.ones((1, 2), numpy.float32))
    y = chainer_core.functions.sum(x * 2)
    path = str(tmp_path / 'graph')
    misc.draw_computational_graph([y], path)
    with open(path + '.gv') as f:
        assert 'digraph' in f.read()


class _CountingEnv(gymnasium.Env):
    observation_space = gymnasium.spaces.Discrete(10)
    action_space = gymnasium.spaces.Discrete(10)

    def __init__(self):
        self.last_action = None
        self.rendered = 0

    def reset(self, seed=None, options=None):
        return 0, {}

    def step(self, action):
        self.last_action = action
        return 1, 5.0, False, False, {}

    def render(self):
        self.rendered += 1


def test_env_modifiers():
    env = _CountingEnv()
    env_modifiers.make_timestep_limited(env, 2)
    env_modifiers.make_action_filtered(env, lambda a: a + 1)
    env_modifiers.make_reward_clipped(env, -1.0, 1.0)
    env_modifiers.make_rendered(env)
    env.reset()
    assert env.step(3) == (1, 1.0, False, False, {})
    assert env.last_action == 4 and env.rendered == 1
    assert env.step(3)[3] is True  # truncated at the limit
    env.reset()
    assert env.step(0)[3] is False
    env2 = _CountingEnv()
    env_modifiers.make_reward_filtered(env2, lambda r: r * 2)
    assert env2.step(0)[1] == 10.0


def test_env_modifiers_on_abc():
    env = ABC(episodic=False, deterministic=True)
    env_modifiers.make_timestep_limited(env, 3)
    env.reset(seed=0)
    results = [env.step(a) for a in (0, 1, 0)]
    assert [r[1] for r in results] == [0.0, 1.0, 0.0]
    assert [r[3] for r in results] == [False, False, True]


def test_env_modifiers_errors():
    with pytest.raises(ValueError, match='make_timestep_limited'):
        env_modifiers.make_timestep_limited(_CountingEnv(), 0)
    with pytest.raises(TypeError, match='make_action_filtered'):
        env_modifiers.make_action_filtered(_CountingEnv(), 3)
