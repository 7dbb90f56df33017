"""DeepMind-style Atari preprocessing (Mnih et al., 2015) for gymnasium.

Nothing here needs the Atari emulator: every wrapper works on any env whose
observations are images (H x W x 3 RGB or H x W grayscale arrays). Lives are
read from ``env.unwrapped.ale.lives()`` when the env has an ALE, otherwise
from ``info['lives']`` as gymnasium's Atari envs report it. Action meanings
come from ``env.unwrapped.get_action_meanings()`` when it exists.
"""
import collections

import gymnasium
import numpy as np

from chainer_rl.wrappers._checks import check_channel_order
from chainer_rl.wrappers._checks import check_env
from chainer_rl.wrappers._checks import check_positive_int
from chainer_rl.wrappers.continuing_time_limit import ContinuingTimeLimit


__all__ = ['LazyFrames', 'NoopResetEnv', 'FireResetEnv', 'EpisodicLifeEnv',
           'MaxAndSkipEnv', 'ClipRewardEnv', 'WarpFrame', 'ScaledFloatFrame',
           'FrameStack', 'FlickerFrame', 'make_atari', 'wrap_deepmind']


def _action_meanings(env):
    getter = getattr(env.unwrapped, 'get_action_meanings', None)
    return list(getter()) if callable(getter) else None


class NoopResetEnv(gymnasium.Wrapper):
    """On reset, take a random number (1 to ``noop_max``) of no-op steps so
    episodes start from varied states.

    Args:
        env (gymnasium.Env): env whose action 0 is a no-op.
        noop_max (int): largest number of no-ops.
    """

    def __init__(self, env, noop_max=30):
        check_env('NoopResetEnv', env)
        super().__init__(env)
        self.noop_max = check_positive_int('NoopResetEnv', 'noop_max',
                                           noop_max)
        self.override_num_noops = None
        self.noop_action = 0
        meanings = _action_meanings(env)
        if meanings is not None and meanings[0] != 'NOOP':
            raise ValueError("NoopResetEnv: action 0 must be 'NOOP', the "
                             "env's actions are {}".format(meanings))

    def reset(self, **kwargs):
        """Reset, then take the random no-ops (resetting again if the
        episode ends meanwhile)."""
        obs, info = self.env.reset(**kwargs)
        if self.override_num_noops is not None:
            noops = self.override_num_noops
        else:
            noops = int(self.unwrapped.np_random.integers(
                1, self.noop_max + 1))
        for _ in range(noops):
            obs, _, terminated, truncated, info = self.env.step(
                self.noop_action)
            if terminated or truncated:
                obs, info = self.env.reset()
        return obs, info


class FireResetEnv(gymnasium.Wrapper):
    """On reset, press FIRE (action 1) then action 2, for games that wait
    for FIRE to start.

    Args:
        env (gymnasium.Env): env whose action 1 is FIRE.
    """

    def __init__(self, env):
        check_env('FireResetEnv', env)
        super().__init__(env)
        meanings = _action_meanings(env)
        if meanings is not None and (len(meanings) < 3
                                     or meanings[1] != 'FIRE'):
            raise ValueError("FireResetEnv: action 1 must be 'FIRE' and there "
                             "must be at least 3 actions; the env's actions "
                             "are {}".format(meanings))
        if meanings is None and getattr(env.action_space, 'n', 0) < 3:
            raise ValueError('FireResetEnv: the env needs at least 3 '
                             'discrete actions, got {}'.format(
                                 env.action_space))

    def reset(self, **kwargs):
        """Reset, then take actions 1 and 2."""
        obs, info = self.env.reset(**kwargs)
        for action in (1, 2):
            obs, _, terminated, truncated, info = self.env.step(action)
            if terminated or truncated:
                obs, info = self.env.reset(**kwargs)
        return obs, info


class EpisodicLifeEnv(gymnasium.Wrapper):
    """Make losing a life terminal for the learner, while the game only
    really resets when it is over (helps value estimation, Mnih et al.).

    ``was_real_done`` tells whether the last episode end was the game's.
    """

    def __init__(self, env):
        check_env('EpisodicLifeEnv', env)
        super().__init__(env)
        self.lives = 0
        self.was_real_done = True

    def _lives(self, info):
        ale = getattr(self.env.unwrapped, 'ale', None)
        if ale is not None and callable(getattr(ale, 'lives', None)):
            return int(ale.lives())
        if 'lives' in info:
            return int(info['lives'])
        raise ValueError("EpisodicLifeEnv: the env reports no lives (neither "
                         "unwrapped.ale.lives() nor info['lives'])")

    def step(self, action):
        """Step; a lost life (with lives left) is reported as terminal."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.was_real_done = bool(terminated or truncated)
        lives = self._lives(info)
        if 0 < lives < self.lives:
            terminated = True
        self.lives = lives
        return obs, reward, terminated, truncated, info

    def reset(self, **kwargs):
        """Reset the game only if it is over; otherwise take a no-op step
        to continue from the lost life."""
        if self.was_real_done:
            obs, info = self.env.reset(**kwargs)
        else:
            obs, _, terminated, truncated, info = self.env.step(0)
            if terminated or truncated:
                obs, info = self.env.reset(**kwargs)
        self.was_real_done = False
        self.lives = self._lives(info)
        return obs, info


class MaxAndSkipEnv(gymnasium.Wrapper):
    """Repeat each action ``skip`` times, summing rewards, and return the
    pixel-wise maximum of the last two frames (Atari sprites flicker).

    Args:
        env (gymnasium.Env): env to wrap.
        skip (int): frames per action.
    """

    def __init__(self, env, skip=4):
        check_env('MaxAndSkipEnv', env)
        super().__init__(env)
        self._skip = check_positive_int('MaxAndSkipEnv', 'skip', skip)

    def step(self, action):
        """Repeat ``action``; stop early when the episode ends."""
        total = 0.0
        frames = collections.deque(maxlen=2)
        terminated = truncated = False
        info = {}
        for _ in range(self._skip):
            obs, reward, terminated, truncated, info = self.env.step(action)
            frames.append(obs)
            total += reward
            if terminated or truncated:
                break
        if len(frames) == 2:
            obs = np.maximum(frames[0], frames[1])
        else:
            obs = frames[0]
        return obs, total, terminated, truncated, info


class ClipRewardEnv(gymnasium.RewardWrapper):
    """Replace rewards by their sign (-1, 0 or 1), so one learning rate
    suits games with very different score scales."""

    def __init__(self, env):
        check_env('ClipRewardEnv', env)
        super().__init__(env)

    def reward(self, reward):
        """Return the sign of ``reward``."""
        return float(np.sign(reward))


def _area_weights(n_in, n_out):
    # W[i, j]: share of source pixel j in target pixel i, each target
    # pixel averaging the source interval it covers (area interpolation).
    scale = n_in / n_out
    w = np.zeros((n_out, n_in), dtype=np.float64)
    for i in range(n_out):
        lo = i * scale
        hi = (i + 1) * scale
        j = int(np.floor(lo))
        while j < n_in and j < hi:
            w[i, j] = min(hi, j + 1) - max(lo, j)
            j += 1
        w[i] /= w[i].sum()
    return w


class WarpFrame(gymnasium.ObservationWrapper):
    """Grayscale and resize frames to ``height`` x ``width`` (84 x 84).

    Gray is the ITU-R 601 luma (0.299 R + 0.587 G + 0.114 B) rounded to
    uint8; resizing averages the source area each target pixel covers.

    Args:
        env (gymnasium.Env): env with H x W x 3 (RGB), H x W x 1 or H x W
            uint8 image observations.
        channel_order (str): ``'hwc'`` gives (84, 84, 1), ``'chw'`` gives
            (1, 84, 84).
        width, height (int): output size.
    """

    def __init__(self, env, channel_order='hwc', width=84, height=84):
        check_env('WarpFrame', env)
        self._stack_axis = check_channel_order('WarpFrame', channel_order)
        super().__init__(env)
        self.width = check_positive_int('WarpFrame', 'width', width)
        self.height = check_positive_int('WarpFrame', 'height', height)
        self.channel_order = channel_order
        space = env.observation_space
        shape = getattr(space, 'shape', None)
        if not isinstance(space, gymnasium.spaces.Box) or shape is None or \
                not (len(shape) == 2 or (len(shape) == 3
                                         and shape[2] in (1, 3))):
            raise ValueError('WarpFrame: observations must be H x W x 3, '
                             'H x W x 1 or H x W images, got the space {}'
                             .format(space))
        self._in_shape = tuple(shape)
        self._rows = _area_weights(shape[0], self.height)
        self._cols = _area_weights(shape[1], self.width).T
        out_shape = ((self.height, self.width, 1) if channel_order == 'hwc'
                     else (1, self.height, self.width))
        self.observation_space = gymnasium.spaces.Box(
            low=0, high=255, shape=out_shape, dtype=np.uint8)

    def observation(self, frame):
        """Return the gray, resized ``frame``."""
        frame = np.asarray(frame)
        if frame.shape != self._in_shape:
            raise ValueError('WarpFrame.observation: expected a frame of '
                             'shape {}, got {}'.format(self._in_shape,
                                                       frame.shape))
        if frame.ndim == 3 and frame.shape[2] == 3:
            gray = frame.astype(np.float64) @ np.array([0.299, 0.587, 0.114])
            gray = np.clip(np.rint(gray), 0, 255)
        else:
            gray = frame.reshape(frame.shape[:2]).astype(np.float64)
        small = self._rows @ gray @ self._cols
        small = np.clip(np.rint(small), 0, 255).astype(np.uint8)
        if self.channel_order == 'hwc':
            return small[:, :, None]
        return small[None]


class ScaledFloatFrame(gymnasium.ObservationWrapper):
    """Divide uint8 frames by 255 into float32 in [0, 1]."""

    def __init__(self, env):
        check_env('ScaledFloatFrame', env)
        super().__init__(env)
        self.observation_space = gymnasium.spaces.Box(
            low=0.0, high=1.0, shape=env.observation_space.shape,
            dtype=np.float32)

    def observation(self, observation):
        """Return ``observation / 255`` as float32."""
        return np.asarray(observation, dtype=np.float32) / 255.0


class FlickerFrame(gymnasium.ObservationWrapper):
    """Blank each frame (all zeros) with probability 0.5, making the task
    partially observable (Hausknecht and Stone, 2015, for DRQN).

    Draws use the env's ``np_random``, so ``reset(seed=...)`` seeds them.
    """

    def __init__(self, env):
        check_env('FlickerFrame', env)
        super().__init__(env)

    def observation(self, observation):
        """Return ``observation`` or, half the time, zeros like it."""
        if self.unwrapped.np_random.uniform() < 0.5:
            return np.zeros_like(observation)
        return observation


class LazyFrames(object):
    """Stacked frames that share memory with the frames they stack.

    Consecutive observations of a frame stack overlap in ``k - 1`` frames;
    keeping references instead of a concatenated copy saves memory in
    replay buffers. ``np.asarray(lazy)`` builds the stacked array.

    Args:
        frames (list of arrays): frames, oldest first.
        stack_axis (int): axis along which they are concatenated.
    """

    def __init__(self, frames, stack_axis=2):
        self._frames = list(frames)
        if not self._frames:
            raise ValueError('LazyFrames: frames is empty')
        self.stack_axis = stack_axis

    def __array__(self, dtype=None, copy=None):
        out = np.concatenate(self._frames, axis=self.stack_axis)
        if dtype is not None:
            out = out.astype(dtype, copy=False)
        return out

    @property
    def shape(self):
        """Shape of the stacked array."""
        shape = list(np.shape(self._frames[0]))
        shape[self.stack_axis] = sum(np.shape(f)[self.stack_axis]
                                     for f in self._frames)
        return tuple(shape)

    @property
    def dtype(self):
        """Dtype of the stacked array."""
        return np.asarray(self._frames[0]).dtype

    @property
    def frames(self):
        """The stacked frames, oldest first (not copied)."""
        return list(self._frames)

    def __len__(self):
        return self.shape[0]

    def __getitem__(self, index):
        return np.asarray(self)[index]

    def __eq__(self, other):
        return np.array_equal(np.asarray(self), np.asarray(other))

    __hash__ = None


class FrameStack(gymnasium.Wrapper):
    """Observe the last ``k`` frames stacked along the channel axis (as
    :class:`LazyFrames`), giving the agent motion information.

    Args:
        env (gymnasium.Env): env with image observations whose channel axis
            is last (``'hwc'``) or first (``'chw'``).
        k (int): number of frames.
        channel_order (str): ``'hwc'`` or ``'chw'``.
    """

    def __init__(self, env, k, channel_order='hwc'):
        check_env('FrameStack', env)
        self.stack_axis = check_channel_order('FrameStack', channel_order)
        super().__init__(env)
        self.k = check_positive_int('FrameStack', 'k', k)
        self.frames = collections.deque([], maxlen=self.k)
        space = env.observation_space
        if not isinstance(space, gymnasium.spaces.Box) or \
                len(space.shape) != 3:
            raise ValueError('FrameStack: observations must be 3-d image '
                             'Boxes, got {}'.format(space))
        self.observation_space = gymnasium.spaces.Box(
            low=np.repeat(space.low, self.k, axis=self.stack_axis),
            high=np.repeat(space.high, self.k, axis=self.stack_axis),
            dtype=space.dtype)

    def reset(self, **kwargs):
        """Reset and fill the stack with ``k`` copies of the first frame."""
        obs, info = self.env.reset(**kwargs)
        for _ in range(self.k):
            self.frames.append(obs)
        return self._observation(), info

    def step(self, action):
        """Step and push the new frame."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.frames.append(obs)
        return self._observation(), reward, terminated, truncated, info

    def _observation(self):
        return LazyFrames(list(self.frames), stack_axis=self.stack_axis)


def _strip_time_limit(env):
    # Remove gymnasium's TimeLimit (wherever make put it) so the frame
    # budget below is the only limit and is reported as ``needs_reset``.
    if isinstance(env, gymnasium.wrappers.TimeLimit):
        return env.env
    if isinstance(env, gymnasium.Wrapper):
        inner = _strip_time_limit(env.env)
        if inner is not env.env:
            env.env = inner
    return env


def make_atari(env_id, max_frames=30 * 60 * 60):
    """Make an Atari env without frame skipping, add no-op starts, a skip of
    4 frames with max-pooling, and a ``max_frames`` (emulator frames) time
    limit reported as truncation.

    Args:
        env_id (str): a gymnasium id of an env without frame skipping
            (``'PongNoFrameskip-v4'``, or an ``'ALE/...'`` id made with
            ``frameskip=1``).
        max_frames (int or None): frames per episode (30 minutes at 60 fps
            by default); None for no limit.
    """
    if not isinstance(env_id, str):
        raise TypeError('make_atari: env_id must be a str, got {!r}'.format(
            env_id))
    kwargs = {}
    if env_id.startswith('ALE/'):
        kwargs = {'frameskip': 1, 'repeat_action_probability': 0.0}
    try:
        env = gymnasium.make(env_id, **kwargs)
    except gymnasium.error.Error as e:
        raise ValueError(
            'make_atari: cannot make {!r} ({}); Atari games need '
            '"pip install gymnasium[atari]"'.format(env_id, e))
    if 'NoFrameskip' not in env.spec.id and \
            getattr(env.unwrapped, '_frameskip', 1) != 1:
        raise ValueError('make_atari: {!r} skips frames itself; use a '
                         'NoFrameskip id'.format(env_id))
    env = _strip_time_limit(env)
    if max_frames:
        env = ContinuingTimeLimit(env, max_episode_steps=max_frames)
    env = NoopResetEnv(env, noop_max=30)
    env = MaxAndSkipEnv(env, skip=4)
    return env


def wrap_deepmind(env, episode_life=True, clip_rewards=True,
                  frame_stack=True, scale=False, fire_reset=False,
                  channel_order='chw', flicker=False):
    """Apply DeepMind's preprocessing: episodic lives, FIRE on reset (when
    asked and the game has FIRE), 84 x 84 gray frames, optional scaling to
    [0, 1], reward clipping, optional flicker and a stack of 4 frames.
    """
    check_channel_order('wrap_deepmind', channel_order)
    if episode_life:
        env = EpisodicLifeEnv(env)
    if fire_reset and 'FIRE' in (_action_meanings(env) or []):
        env = FireResetEnv(env)
    env = WarpFrame(env, channel_order=channel_order)
    if scale:
        env = ScaledFloatFrame(env)
    if clip_rewards:
        env = ClipRewardEnv(env)
    if flicker:
        env = FlickerFrame(env)
    if frame_stack:
        env = FrameStack(env, 4, channel_order=channel_order)
    return env
