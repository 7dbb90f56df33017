"""Serial and multiprocess vector envs: ChainerRL's interface over
gymnasium's terminated/truncated."""
import gymnasium
import numpy
import pytest

from chainer_rl.envs import ABC
from chainer_rl.envs import MultiprocessVectorEnv
from chainer_rl.envs import SerialVectorEnv


class _Faulty(gymnasium.Env):
    observation_space = gymnasium.spaces.Discrete(2)
    action_space = gymnasium.spaces.Discrete(2)

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        return 0, {'seed': seed}

    def step(self, action):
        if action == 1:
            raise ValueError('bad action in faulty env')
        return 0, 0.0, False, False, {}


def _make_abc():
    return ABC(size=2, episodic=False, deterministic=True, time_limit=2)


def _make_vec(kind, fns):
    if kind == 'serial':
        return SerialVectorEnv([fn() for fn in fns])
    return MultiprocessVectorEnv(fns)


@pytest.fixture(params=['serial', 'multiprocess'])
def kind(request):
    return request.param


def test_step_maps_terminated_and_truncated(kind):
    fns = [_make_abc, lambda: ABC(size=2, deterministic=True)]
    env = _make_vec(kind, fns)
    try:
        assert env.num_envs == 2
        assert env.action_space == gymnasium.spaces.Discrete(2)
        assert env.observation_space.shape == (4,)
        obs = env.reset()
        assert len(obs) == 2
        obs, rewards, dones, infos = env.step([0, 1])
        # env 1: wrong action -> terminated
        assert tuple(rewards) == (0.0, 0.0)
        assert tuple(dones) == (False, True)
        assert 'needs_reset' not in infos[0]
        # Reset only env 1; env 0 keeps (returns) its last observation.
        obs2 = env.reset([True, False])
        numpy.testing.assert_array_equal(obs2[0], obs[0])
        numpy.testing.assert_array_equal(obs2[0], [0, 1, 0, 0])
        numpy.testing.assert_array_equal(obs2[1], [1, 0, 0, 0])
        obs, rewards, dones, infos = env.step([1, 0])
        # env 0: correct again, reward 1 and truncated by its time limit
        assert tuple(rewards) == (1.0, 0.0)
        assert tuple(dones) == (False, False)
        assert infos[0]['needs_reset'] is True
        assert 'needs_reset' not in infos[1]
        obs3, infos3 = env.reset(return_info=True)
        assert len(infos3) == 2
    finally:
        env.close()
        env.close()  # idempotent
    with pytest.raises(RuntimeError, match='closed'):
        env.step([0, 0])


def test_seed_applies_to_next_reset(kind):
    env = _make_vec(kind, [_Faulty, _Faulty])
    try:
        assert env.seed(5) == [5, 6]
        _, infos = env.reset(return_info=True)
        assert [i['seed'] for i in infos] == [5, 6]
        _, infos = env.reset(return_info=True)
        assert [i['seed'] for i in infos] == [None, None]
        with pytest.raises(ValueError, match='seeds'):
            env.seed([1])
    finally:
        env.close()


def test_argument_checks(kind):
    env = _make_vec(kind, [_make_abc, _make_abc])
    try:
        env.reset()
        with pytest.raises(ValueError, match='actions'):
            env.step([0])
        with pytest.raises(ValueError, match='mask'):
            env.reset([True])
    finally:
        env.close()


def test_child_error_names_env_index_and_env_stays_usable():
    env = MultiprocessVectorEnv([_Faulty, _Faulty, _Faulty])
    try:
        env.reset()
        with pytest.raises(RuntimeError,
                           match=r'env 2 raised.*\n(.|\n)*bad action'):
            env.step([0, 0, 1])
        # Every reply was consumed: the next command gets its own answers.
        obs, rewards, dones, infos = env.step([0, 0, 0])
        assert tuple(rewards) == (0.0, 0.0, 0.0)
    finally:
        env.close()
    assert all(not p.is_alive() for p in env.processes)


def test_creation_error_is_reported_and_processes_end():
    def broken():
        raise OSError('cannot make env')

    with pytest.raises(RuntimeError, match=r'env 1 raised(.|\n)*cannot make'):
        MultiprocessVectorEnv([_make_abc, broken])


def test_bad_constructor_arguments():
    with pytest.raises(ValueError, match='MultiprocessVectorEnv: env_fns'):
        MultiprocessVectorEnv([])
    with pytest.raises(TypeError, match=r'env_fns\[1\]'):
        MultiprocessVectorEnv([_make_abc, 3])
    with pytest.raises(TypeError, match=r'SerialVectorEnv: envs\[0\]'):
        SerialVectorEnv([3])
