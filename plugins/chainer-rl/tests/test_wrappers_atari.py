"""The Atari preprocessing wrappers on a small fake image env."""
import gymnasium
import numpy as np
import pytest

from chainer_rl.wrappers import atari_wrappers as aw


class FakeImageEnv(gymnasium.Env):
    """Frames filled with 10 * t (mod 256) plus a pixel lit on odd steps;
    a life is lost every ``life_len`` steps; reward = action - 1.5."""

    metadata = {'render_modes': []}

    def __init__(self, shape=(12, 8, 3), lives=3, life_len=5,
                 meanings=('NOOP', 'FIRE', 'RIGHT', 'LEFT')):
        self.observation_space = gymnasium.spaces.Box(0, 255, shape,
                                                      np.uint8)
        self.action_space = gymnasium.spaces.Discrete(len(meanings))
        self.meanings = list(meanings)
        self.max_lives = lives
        self.life_len = life_len
        self.n_resets = 0
        self.t = 0

    def get_action_meanings(self):
        return self.meanings

    def _frame(self):
        frame = np.full(self.observation_space.shape, (10 * self.t) % 256,
                        dtype=np.uint8)
        if self.t % 2 == 1:
            frame[0, 0] = 255
        return frame

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        self.t = 0
        self.lives = self.max_lives
        self.actions = []
        self.n_resets += 1
        return self._frame(), {'lives': self.lives}

    def step(self, action):
        self.actions.append(int(action))
        self.t += 1
        if self.t % self.life_len == 0:
            self.lives -= 1
        return (self._frame(), float(action) - 1.5, self.lives == 0, False,
                {'lives': self.lives})


def test_noop_reset_takes_noops():
    env = aw.NoopResetEnv(FakeImageEnv(life_len=100), noop_max=7)
    env.override_num_noops = 3
    env.reset()
    assert env.unwrapped.actions == [0, 0, 0]
    env.override_num_noops = None
    counts = set()
    for seed in range(20):
        env.reset(seed=seed)
        n = len(env.unwrapped.actions)
        assert 1 <= n <= 7 and set(env.unwrapped.actions) <= {0}
        counts.add(n)
        env.reset(seed=seed)
        assert len(env.unwrapped.actions) == n  # seeded: reproducible
    assert len(counts) > 3
    with pytest.raises(ValueError, match="NoopResetEnv: action 0 must be"):
        aw.NoopResetEnv(FakeImageEnv(meanings=('FIRE', 'NOOP', 'UP')))


def test_noop_reset_restarts_a_finished_game():
    env = aw.NoopResetEnv(FakeImageEnv(lives=1, life_len=2), noop_max=5)
    env.override_num_noops = 5
    env.reset()
    # the game ends after 2 no-ops and is reset; 3 more follow
    assert env.unwrapped.n_resets == 3 and env.unwrapped.t == 1


def test_fire_reset():
    env = aw.FireResetEnv(FakeImageEnv())
    obs, info = env.reset()
    assert env.unwrapped.actions == [1, 2]
    assert obs[1, 1, 0] == 20
    with pytest.raises(ValueError, match="FireResetEnv: action 1 must be"):
        aw.FireResetEnv(FakeImageEnv(meanings=('NOOP', 'UP', 'FIRE')))


def test_episodic_life():
    env = aw.EpisodicLifeEnv(FakeImageEnv(lives=2, life_len=2))
    env.reset()
    assert env.lives == 2
    _, _, term, _, _ = env.step(2)
    assert not term
    _, _, term, _, info = env.step(2)  # life lost: terminal for learning
    assert term and info['lives'] == 1 and not env.was_real_done
    env.reset()  # continues the game with a no-op, no real reset
    assert env.unwrapped.n_resets == 1 and env.unwrapped.actions[-1] == 0
    assert env.unwrapped.t == 3
    _, _, term, _, _ = env.step(2)  # t = 4: last life lost, game over
    assert term and env.was_real_done
    env.reset()
    assert env.unwrapped.n_resets == 2


def test_episodic_life_reads_the_ale():
    class Ale(object):
        def __init__(self, env):
            self.env = env

        def lives(self):
            return self.env.lives + 10

    raw = FakeImageEnv(lives=2, life_len=1)
    raw.ale = Ale(raw)
    env = aw.EpisodicLifeEnv(raw)
    env.reset()
    assert env.lives == 12
    _, _, term, _, _ = env.step(0)
    assert term and env.lives == 11
    with pytest.raises(ValueError, match='reports no lives'):
        bare = aw.EpisodicLifeEnv(gymnasium.make('CartPole-v1'))
        bare.reset(seed=0)


def test_max_and_skip():
    env = aw.MaxAndSkipEnv(FakeImageEnv(life_len=100), skip=4)
    env.reset()
    obs, reward, term, trunc, _ = env.step(3)
    assert env.unwrapped.actions == [3, 3, 3, 3]
    assert reward == 4 * 1.5
    # frames t=3 (30, pixel lit) and t=4 (40): maximum per pixel
    assert obs[1, 1, 0] == 40 and obs[0, 0, 0] == 255
    early = aw.MaxAndSkipEnv(FakeImageEnv(lives=1, life_len=2), skip=4)
    early.reset()
    obs, reward, term, _, _ = early.step(0)
    assert term and early.unwrapped.t == 2 and reward == -3.0


def test_clip_reward():
    env = aw.ClipRewardEnv(FakeImageEnv())
    env.reset()
    assert [env.step(a)[1] for a in (0, 1, 2, 3)] == [-1.0, -1.0, 1.0, 1.0]


class _FixedFrameEnv(gymnasium.Env):
    def __init__(self, frame):
        self.frame = frame
        self.observation_space = gymnasium.spaces.Box(
            0, 255, frame.shape, np.uint8)
        self.action_space = gymnasium.spaces.Discrete(2)

    def reset(self, seed=None, options=None):
        return self.frame, {}

    def step(self, action):
        return self.frame, 0.0, False, False, {}


def test_warp_frame_gray_and_area_resize():
    # rows of gray 0, 30, 60 (R = G = B, so gray is exact), 3 x 3 -> 2 x 2:
    # target row 0 covers source rows [0, 1.5): (0 + 0.5 * 30) / 1.5 = 10,
    # target row 1 covers [1.5, 3): (0.5 * 30 + 60) / 1.5 = 50
    frame = np.repeat(np.array([0, 30, 60], np.uint8)[:, None, None],
                      3, axis=1).repeat(3, axis=2)
    env = aw.WarpFrame(_FixedFrameEnv(frame), width=2, height=2)
    obs, _ = env.reset()
    assert obs.shape == (2, 2, 1) and obs.dtype == np.uint8
    np.testing.assert_array_equal(obs[:, :, 0], [[10, 10], [50, 50]])
    # integer factor: a 2 x 2 block average; pure red is 0.299 * 255 = 76
    red = np.zeros((4, 4, 3), np.uint8)
    red[:2, :2, 0] = 255
    env = aw.WarpFrame(_FixedFrameEnv(red), channel_order='chw', width=2,
                       height=2)
    obs, _ = env.reset()
    assert obs.shape == (1, 2, 2)
    np.testing.assert_array_equal(obs[0], [[76, 0], [0, 0]])
    assert env.observation_space.shape == (1, 2, 2)


def test_warp_frame_errors_and_default_size():
    env = aw.WarpFrame(FakeImageEnv(shape=(21, 16, 3)))
    obs, _ = env.reset()
    assert obs.shape == (84, 84, 1)
    assert env.observation_space.contains(obs)
    with pytest.raises(ValueError, match='expected a frame of shape'):
        env.observation(np.zeros((5, 5, 3), np.uint8))
    with pytest.raises(ValueError, match='WarpFrame: observations must be'):
        aw.WarpFrame(gymnasium.make('CartPole-v1'))
    with pytest.raises(ValueError, match='channel_order'):
        aw.WarpFrame(FakeImageEnv(), channel_order='cwh')


def test_scaled_float_frame():
    env = aw.ScaledFloatFrame(_FixedFrameEnv(
        np.array([[[0], [51], [255]]], np.uint8)))
    obs, _ = env.reset()
    assert obs.dtype == np.float32
    np.testing.assert_allclose(obs.ravel(), [0.0, 0.2, 1.0])


def test_frame_stack_and_lazy_frames():
    env = aw.FrameStack(aw.WarpFrame(FakeImageEnv(life_len=100), width=4,
                                     height=3), 3)
    obs, _ = env.reset()
    assert isinstance(obs, aw.LazyFrames)
    arr = np.asarray(obs)
    assert arr.shape == (3, 4, 3) == obs.shape
    assert env.observation_space.shape == (3, 4, 3)
    np.testing.assert_array_equal(arr[1, 1], [0, 0, 0])
    obs1, *_ = env.step(0)
    obs2, *_ = env.step(0)
    np.testing.assert_array_equal(np.asarray(obs2)[2, 2], [0, 10, 20])
    # consecutive stacks share their frames instead of copying them
    assert obs2.frames[0] is obs1.frames[1]
    assert np.asarray(obs2, dtype=np.float32).dtype == np.float32
    chw = aw.FrameStack(aw.WarpFrame(FakeImageEnv(), channel_order='chw',
                                     width=4, height=3), 2,
                        channel_order='chw')
    obs, _ = chw.reset()
    assert np.asarray(obs).shape == (2, 3, 4)
    with pytest.raises(ValueError, match='FrameStack: k'):
        aw.FrameStack(FakeImageEnv(), 0)


def test_flicker_frame_is_seeded():
    env = aw.FlickerFrame(FakeImageEnv(life_len=100))
    blank = []
    for seed in (3, 3):
        env.reset(seed=seed)
        blank.append([not np.asarray(env.step(0)[0]).any()
                      for _ in range(200)])
    assert blank[0] == blank[1]
    assert 70 < sum(blank[0]) < 130


def test_make_atari_and_wrap_deepmind():
    gymnasium.register(id='FakeImageNoFrameskip-v0',
                       entry_point=FakeImageEnv,
                       kwargs={'shape': (21, 16, 3), 'life_len': 50},
                       max_episode_steps=5)
    try:
        env = aw.make_atari('FakeImageNoFrameskip-v0', max_frames=12)
        env.reset(seed=0)
        # the registry's 5-step limit is gone; 12 frames count instead,
        # including the no-ops of the reset
        truncated = False
        steps = 0
        while not truncated:
            _, _, term, truncated, info = env.step(2)
            steps += 1
            assert not term
        assert env.unwrapped.t == 12 and info['needs_reset']

        env = aw.wrap_deepmind(aw.make_atari('FakeImageNoFrameskip-v0'),
                               fire_reset=True)
        obs, _ = env.reset(seed=1)
        assert np.asarray(obs).shape == (4, 84, 84)
        assert np.asarray(obs).dtype == np.uint8
        _, reward, *_ = env.step(3)
        assert reward == 1.0  # 4 frames of +1.5, clipped to the sign
    finally:
        gymnasium.registry.pop('FakeImageNoFrameskip-v0', None)
    with pytest.raises(ValueError, match=r'gymnasium\[atari\]'):
        aw.make_atari('NoSuchGameNoFrameskip-v4')
