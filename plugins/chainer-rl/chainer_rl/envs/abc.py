"""ABC: a tiny deterministic task for checking that agents learn at all."""
import gymnasium
import numpy
from gymnasium import spaces


class ABC(gymnasium.Env):
    """Say the actions ``0, 1, ..., size - 1`` in order.

    From state ``n`` only action ``n`` moves on to state ``n + 1``; after the
    last correct action the reward is 1 and the episode terminates
    (``episodic=True``) or starts over from state 0 (``episodic=False``). A
    wrong action gives reward 0 and terminates the episode (episodic) or
    leaves the state unchanged (non-episodic).

    Observations are one-hot float32 vectors of length ``size + 2``: the
    ``size`` states, the terminal state, and one extra slot used when
    ``partially_observable=True``: then in some episodes every observation
    is shifted by one position, so state 0 looks like state 1 of an
    unshifted episode and only an agent remembering the episode's first
    observation can act right.

    Args:
        size (int): number of correct actions needed (at least 1).
        discrete (bool): ``Discrete(size)`` actions if True; otherwise
            ``Box(-1, 1, (size,))`` actions read as logits of the ``size``
            inner actions (argmax when ``deterministic``, a softmax sample
            otherwise).
        partially_observable (bool): shift observations in some episodes
            (every other episode when ``deterministic``, at random
            otherwise).
        episodic (bool): see above.
        deterministic (bool): no randomness at all (as ChainerRL, False by
            default; the randomness comes from ``self.np_random``, seeded by
            ``reset(seed=...)``).
        time_limit (int or None): truncate episodes after this many steps
            (useful with ``episodic=False``, which never terminates).
    """

    metadata = {'render_modes': []}

    def __init__(self, size=2, discrete=True, partially_observable=False,
                 episodic=True, deterministic=False, time_limit=None):
        if isinstance(size, bool) or not isinstance(
                size, (int, numpy.integer)) or size < 1:
            raise ValueError('ABC: size must be a positive int, got {!r}'
                             .format(size))
        if time_limit is not None and (
                isinstance(time_limit, bool)
                or not isinstance(time_limit, (int, numpy.integer))
                or time_limit < 1):
            raise ValueError('ABC: time_limit must be None or a positive int,'
                             ' got {!r}'.format(time_limit))
        self.size = int(size)
        self.discrete = bool(discrete)
        self.partially_observable = bool(partially_observable)
        self.episodic = bool(episodic)
        self.deterministic = bool(deterministic)
        self.time_limit = time_limit
        self.terminal_state = self.size
        self.n_max_offset = 1
        self.n_dim_obs = self.size + 1 + self.n_max_offset
        self.observation_space = spaces.Box(
            low=0.0, high=1.0, shape=(self.n_dim_obs,), dtype=numpy.float32)
        if self.discrete:
            self.action_space = spaces.Discrete(self.size)
        else:
            self.action_space = spaces.Box(
                low=-1.0, high=1.0, shape=(self.size,), dtype=numpy.float32)
        self._state = None
        self._offset = 0
        self._episode_count = 0
        self._t = 0

    def _observe(self):
        obs = numpy.zeros(self.n_dim_obs, dtype=numpy.float32)
        obs[self._state + self._offset] = 1.0
        return obs

    def reset(self, seed=None, options=None):
        """Start an episode in state 0; returns ``(observation, info)``."""
        super().reset(seed=seed)
        self._state = 0
        self._t = 0
        if self.partially_observable:
            if self.deterministic:
                # Episodes 1, 3, 5, ... unshifted; 2, 4, ... shifted.
                self._offset = self._episode_count % 2
            else:
                self._offset = int(self.np_random.integers(
                    self.n_max_offset + 1))
        else:
            self._offset = 0
        self._episode_count += 1
        return self._observe(), {}

    def _decode_action(self, action):
        if self.discrete:
            try:
                value = int(action)
            except (TypeError, ValueError):
                raise TypeError('ABC.step: a discrete action must be an int, '
                                'got {!r}'.format(action))
            if value != action:
                raise ValueError('ABC.step: a discrete action must be an '
                                 'int, got {!r}'.format(action))
            return value
        logits = numpy.asarray(action, dtype=numpy.float64).reshape(-1)
        if logits.shape != (self.size,):
            raise ValueError('ABC.step: a continuous action must have shape '
                             '({},), got {}'.format(
                                 self.size, numpy.shape(action)))
        logits = numpy.clip(logits, -1.0, 1.0)
        if self.deterministic:
            return int(numpy.argmax(logits))
        p = numpy.exp(logits - logits.max())
        p /= p.sum()
        return int(self.np_random.choice(self.size, p=p))

    def step(self, action):
        """Apply ``action``; returns ``(obs, reward, terminated, truncated,
        info)``."""
        if self._state is None:
            raise RuntimeError('ABC.step: call reset before step')
        if self._state == self.terminal_state:
            raise RuntimeError('ABC.step: the episode has terminated; call '
                               'reset')
        action = self._decode_action(action)
        reward = 0.0
        terminated = False
        if action == self._state:
            if self._state == self.size - 1:
                reward = 1.0
                if self.episodic:
                    terminated = True
                    self._state = self.terminal_state
                else:
                    self._state = 0
            else:
                self._state += 1
        elif self.episodic:
            terminated = True
            self._state = self.terminal_state
        self._t += 1
        truncated = (not terminated and self.time_limit is not None
                     and self._t >= self.time_limit)
        return self._observe(), reward, terminated, truncated, {}
