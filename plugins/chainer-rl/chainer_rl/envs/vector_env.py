"""Vector environments: several gymnasium environments stepped together.

They follow ChainerRL's vector-env interface, which predates gymnasium's
split of ``done`` into ``terminated`` and ``truncated``:

* ``reset(mask=None)`` returns a list of observations; envs with
  ``mask[i]`` True are *not* reset and their last observation is returned
  again (``reset(mask, return_info=True)`` also returns the reset infos).
* ``step(actions)`` returns ``(observations, rewards, dones, infos)``,
  where ``dones[i]`` is gymnasium's ``terminated`` (a true terminal state:
  no bootstrapping) and ``infos[i]['needs_reset']`` is True when the episode
  was ``truncated`` (time limit): the caller must reset that env but still
  bootstrap from its last observation.

Nothing is reset automatically: the caller resets the envs whose episode
ended, as ChainerRL's ``train_agent_batch`` does.
"""
import numpy


def _convert_step(result, where, index):
    if not isinstance(result, tuple) or len(result) not in (4, 5):
        raise TypeError('{}: env {} step must return (obs, reward, '
                        'terminated, truncated, info), got {!r}'.format(
                            where, index, type(result).__name__))
    if len(result) == 5:
        obs, reward, terminated, truncated, info = result
    else:
        obs, reward, terminated, info = result
        truncated = False
    info = dict(info) if info else {}
    if truncated:
        info['needs_reset'] = True
    return obs, reward, bool(terminated), info


def _convert_reset(result):
    if isinstance(result, tuple) and len(result) == 2 and isinstance(
            result[1], dict):
        return result[0], result[1]
    return result, {}


def _check_seeds(seeds, num_envs, where):
    if seeds is None:
        return [None] * num_envs
    if isinstance(seeds, (int, numpy.integer)) and not isinstance(
            seeds, bool):
        return [int(seeds) + i for i in range(num_envs)]
    seeds = list(seeds)
    if len(seeds) != num_envs:
        raise ValueError('{}: seeds must have one entry per env ({}), got {}'
                         .format(where, num_envs, len(seeds)))
    return [None if s is None else int(s) for s in seeds]


def _check_mask(mask, num_envs, where):
    if mask is None:
        return [False] * num_envs
    mask = [bool(m) for m in mask]
    if len(mask) != num_envs:
        raise ValueError('{}: mask must have one entry per env ({}), got {}'
                         .format(where, num_envs, len(mask)))
    return mask


def _check_actions(actions, num_envs, where):
    try:
        n = len(actions)
    except TypeError:
        raise TypeError('{}: actions must be a sequence with one action per '
                        'env, got {}'.format(where, type(actions).__name__))
    if n != num_envs:
        raise ValueError('{}: actions must have one entry per env ({}), got {}'
                         .format(where, num_envs, n))


class VectorEnv(object):
    """Base of the vector environments (see the module docstring)."""

    num_envs = None
    action_space = None
    observation_space = None

    def step(self, actions):
        """Step every env with its action; returns ``(observations, rewards,
        dones, infos)``."""
        raise NotImplementedError

    def reset(self, mask=None, return_info=False):
        """Reset the envs not masked; returns their observations."""
        raise NotImplementedError

    def seed(self, seeds=None):
        """Seed each env (an int gives ``seed + i`` to env ``i``); the seed
        applies to the env's spaces now and to its next reset."""
        raise NotImplementedError

    def close(self):
        """Release the envs."""
        raise NotImplementedError

    @property
    def unwrapped(self):
        """The vector env itself (for code that unwraps single envs)."""
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


class SerialVectorEnv(VectorEnv):
    """Vector env stepping the given env instances one after another in this
    process (ChainerRL's ``SerialVectorEnv(envs)``)."""

    def __init__(self, envs):
        envs = list(envs)
        if not envs:
            raise ValueError('SerialVectorEnv: envs is empty; expected at '
                             'least one environment')
        for i, env in enumerate(envs):
            if not callable(getattr(env, 'step', None)) or not callable(
                    getattr(env, 'reset', None)):
                raise TypeError('SerialVectorEnv: envs[{}] is not an '
                                'environment (no step/reset), got {}'.format(
                                    i, type(env).__name__))
        self.envs = envs
        self.num_envs = len(envs)
        self.action_space = envs[0].action_space
        self.observation_space = envs[0].observation_space
        self.last_obs = [None] * self.num_envs
        self._pending_seeds = [None] * self.num_envs
        self.closed = False

    def _check_open(self, where):
        if self.closed:
            raise RuntimeError('SerialVectorEnv.{}: the env is closed'
                               .format(where))

    def step(self, actions):
        """Step each env with its action (see the module docstring)."""
        self._check_open('step')
        _check_actions(actions, self.num_envs, 'SerialVectorEnv.step')
        results = [_convert_step(env.step(a), 'SerialVectorEnv.step', i)
                   for i, (env, a) in enumerate(zip(self.envs, actions))]
        obs, rewards, dones, infos = zip(*results)
        self.last_obs = list(obs)
        return obs, rewards, dones, infos

    def reset(self, mask=None, return_info=False):
        """Reset the envs whose ``mask`` entry is False (all when None)."""
        self._check_open('reset')
        mask = _check_mask(mask, self.num_envs, 'SerialVectorEnv.reset')
        infos = [{} for _ in range(self.num_envs)]
        for i, (env, skip) in enumerate(zip(self.envs, mask)):
            if skip:
                continue
            seed, self._pending_seeds[i] = self._pending_seeds[i], None
            kwargs = {} if seed is None else {'seed': seed}
            self.last_obs[i], infos[i] = _convert_reset(env.reset(**kwargs))
        obs = list(self.last_obs)
        return (obs, infos) if return_info else obs

    def seed(self, seeds=None):
        """Seed each env's spaces now and its next reset."""
        self._check_open('seed')
        seeds = _check_seeds(seeds, self.num_envs, 'SerialVectorEnv.seed')
        for i, (env, s) in enumerate(zip(self.envs, seeds)):
            _seed_spaces(env, s)
            self._pending_seeds[i] = s
        return seeds

    def close(self):
        """Close every env (calling it again does nothing)."""
        if self.closed:
            return
        self.closed = True
        for env in self.envs:
            env.close()


def _seed_spaces(env, seed):
    if seed is None:
        return
    for name in ('action_space', 'observation_space'):
        space = getattr(env, name, None)
        if space is not None and hasattr(space, 'seed'):
            space.seed(seed)
