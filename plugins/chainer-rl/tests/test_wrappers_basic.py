"""The general wrappers and VectorFrameStack."""
import gymnasium
import numpy as np
import pytest

from chainer_rl import envs
from chainer_rl import wrappers


class RecordingEnv(gymnasium.Env):
    """Returns obs [t, t+0.5] (float64), reward t, records actions."""

    metadata = {'render_modes': []}

    def __init__(self, action_space=None, terminate_at=None):
        self.observation_space = gymnasium.spaces.Box(
            -np.inf, np.inf, (2,), np.float64)
        self.action_space = action_space or gymnasium.spaces.Discrete(4)
        self.terminate_at = terminate_at
        self.actions = []
        self.renders = 0

    def _obs(self):
        return np.array([self.t, self.t + 0.5])

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        self.t = 0
        return self._obs(), {}

    def step(self, action):
        self.actions.append(action)
        self.t += 1
        return (self._obs(), float(self.t), self.t == self.terminate_at,
                False, {})

    def render(self):
        self.renders += 1


def test_scale_reward():
    env = wrappers.ScaleReward(RecordingEnv(), 0.25)
    env.reset()
    env.step(0)
    _, r, *_ = env.step(0)
    assert r == 0.5 and env.original_reward == 2.0
    with pytest.raises(ValueError, match='ScaleReward: scale'):
        wrappers.ScaleReward(RecordingEnv(), 'x')
    with pytest.raises(TypeError, match='ScaleReward: env must be'):
        wrappers.ScaleReward(object(), 1.0)


def test_cast_observation():
    env = wrappers.CastObservationToFloat32(RecordingEnv())
    obs, _ = env.reset()
    assert obs.dtype == np.float32
    assert env.observation_space.dtype == np.float32
    obs, *_ = env.step(0)
    np.testing.assert_array_equal(obs, [1.0, 1.5])
    assert env.original_observation.dtype == np.float64
    env = wrappers.CastObservation(RecordingEnv(), np.int32)
    obs, _ = env.reset()
    assert obs.dtype == np.int32


def test_normalize_action_space():
    box = gymnasium.spaces.Box(np.array([-2.0, 0.0], np.float32),
                               np.array([2.0, 10.0], np.float32))
    raw = RecordingEnv(action_space=box)
    env = wrappers.NormalizeActionSpace(raw)
    assert env.action_space == gymnasium.spaces.Box(-1.0, 1.0, (2,),
                                                    np.float32)
    env.reset()
    for a, expected in (([-1, 1], [-2, 10]), ([0, 0], [0, 5]),
                        ([0.5, -0.5], [1, 2.5])):
        env.step(np.array(a, np.float32))
        np.testing.assert_allclose(raw.actions[-1], expected)
        assert raw.actions[-1].dtype == np.float32
    with pytest.raises(ValueError, match=r'expected an action of shape'):
        env.step(np.zeros(3, np.float32))
    with pytest.raises(TypeError, match='must be a Box'):
        wrappers.NormalizeActionSpace(RecordingEnv())
    with pytest.raises(ValueError, match='bounded'):
        wrappers.NormalizeActionSpace(RecordingEnv(
            gymnasium.spaces.Box(-np.inf, np.inf, (1,))))


def test_randomize_action_frequency():
    raw = RecordingEnv()
    env = wrappers.RandomizeAction(raw, 0.5)
    env.reset(seed=0)
    for _ in range(4000):
        env.step(2)
    kept = np.mean(np.array(raw.actions) == 2)
    # kept: 0.5 unchanged + 0.5 * 1/4 randomly drawn as 2
    assert abs(kept - 0.625) < 0.03
    assert set(raw.actions) == {0, 1, 2, 3}
    first = list(raw.actions[:50])
    raw.actions.clear()
    env.reset(seed=0)
    for _ in range(50):
        env.step(2)
    assert raw.actions == first
    never = wrappers.RandomizeAction(RecordingEnv(), 0)
    never.reset()
    never.step(1)
    assert never.unwrapped.actions == [1]
    with pytest.raises(ValueError, match='is not an action of'):
        env.step(7)
    with pytest.raises(ValueError, match='random_fraction'):
        wrappers.RandomizeAction(RecordingEnv(), 1.5)
    with pytest.raises(TypeError, match='Discrete'):
        wrappers.RandomizeAction(RecordingEnv(
            gymnasium.spaces.Box(-1, 1, (1,))), 0.1)


def test_render_after_reset_and_step():
    env = wrappers.Render(RecordingEnv())
    env.reset()
    env.step(0)
    env.step(0)
    assert env.unwrapped.renders == 3


def test_continuing_time_limit():
    env = wrappers.ContinuingTimeLimit(RecordingEnv(terminate_at=5), 3)
    with pytest.raises(RuntimeError, match='call reset'):
        env.step(0)
    env.reset()
    results = [env.step(0) for _ in range(3)]
    assert [r[2] for r in results] == [False, False, False]
    assert [r[3] for r in results] == [False, False, True]
    assert results[2][4]['needs_reset'] is True
    assert 'needs_reset' not in results[1][4]
    env.reset()
    assert env.step(0)[3] is False
    # a terminal step within the limit stays terminal, not truncated
    env = wrappers.ContinuingTimeLimit(RecordingEnv(terminate_at=2), 9)
    env.reset()
    env.step(0)
    _, _, term, trunc, _ = env.step(0)
    assert term and not trunc
    with pytest.raises(ValueError, match='max_episode_steps'):
        wrappers.ContinuingTimeLimit(RecordingEnv(), 0)


class CountingEnv(gymnasium.Env):
    """1 x 2 observations [offset + t, offset + t]; ends at t == 3."""

    def __init__(self, offset):
        self.offset = offset
        self.observation_space = gymnasium.spaces.Box(0, 100, (1, 2),
                                                      np.float32)
        self.action_space = gymnasium.spaces.Discrete(2)

    def _obs(self):
        return np.full((1, 2), self.offset + self.t, np.float32)

    def reset(self, seed=None, options=None):
        self.t = 0
        return self._obs(), {}

    def step(self, action):
        self.t += 1
        return self._obs(), 1.0, self.t == 3, False, {}


def test_vector_frame_stack():
    venv = envs.SerialVectorEnv([CountingEnv(0), CountingEnv(10)])
    env = wrappers.VectorFrameStack(venv, 3, stack_axis=0)
    assert env.num_envs == 2
    assert env.observation_space.shape == (3, 2)
    obs = env.reset()
    np.testing.assert_array_equal(np.asarray(obs[1])[:, 0], [10, 10, 10])
    obs, rewards, dones, infos = env.step([0, 0])
    obs, rewards, dones, infos = env.step([0, 0])
    np.testing.assert_array_equal(np.asarray(obs[0])[:, 0], [0, 1, 2])
    obs, rewards, dones, infos = env.step([0, 0])
    assert list(dones) == [True, True]
    # reset only env 0: env 1 keeps its stack
    obs = env.reset(mask=[False, True])
    np.testing.assert_array_equal(np.asarray(obs[0])[:, 0], [0, 0, 0])
    np.testing.assert_array_equal(np.asarray(obs[1])[:, 0], [11, 12, 13])
    obs, infos = env.reset(return_info=True)
    assert len(infos) == 2
    env.close()
    assert venv.closed
    with pytest.raises(ValueError, match='stack_axis'):
        wrappers.VectorFrameStack(
            envs.SerialVectorEnv([CountingEnv(0)]), 2, stack_axis=2)
