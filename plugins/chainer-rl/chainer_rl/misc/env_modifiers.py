"""Modify an environment instance in place by wrapping its methods.

These change ``env.step``/``env.reset``/``env.close`` on the given object
(ChainerRL's style) and work with both gymnasium environments (``step``
returning ``obs, reward, terminated, truncated, info``) and old-style ones
(``obs, reward, done, info``).
"""
import numpy


def _check_env(env, where):
    if not callable(getattr(env, 'step', None)):
        raise TypeError('{}: env must have a step method, got {}'
                        .format(where, type(env).__name__))


def _check_filter(where, name, func):
    if not callable(func):
        raise TypeError('{}: {} must be callable, got {}'.format(
            where, name, type(func).__name__))


def make_rendered(env, *render_args, **render_kwargs):
    """Render after every step (gymnasium envs render in the mode they were
    made with, so arguments are passed only if given)."""
    _check_env(env, 'make_rendered')
    base_step = env.step

    def step(action):
        result = base_step(action)
        env.render(*render_args, **render_kwargs)
        return result

    env.step = step


def make_timestep_limited(env, timestep_limit):
    """End episodes after ``timestep_limit`` steps.

    A gymnasium step at the limit reports ``truncated=True`` (not terminal);
    an old-style step reports ``done=True`` as ChainerRL did.
    """
    _check_env(env, 'make_timestep_limited')
    if isinstance(timestep_limit, bool) or not isinstance(
            timestep_limit, (int, numpy.integer)) or timestep_limit < 1:
        raise ValueError('make_timestep_limited: timestep_limit must be a '
                         'positive int, got {!r}'.format(timestep_limit))
    count = [0]
    base_step = env.step
    base_reset = env.reset

    def step(action):
        result = base_step(action)
        count[0] += 1
        if count[0] >= timestep_limit:
            if len(result) == 5:
                obs, reward, terminated, truncated, info = result
                return obs, reward, terminated, True, info
            obs, reward, done, info = result
            return obs, reward, True, info
        return result

    def reset(*args, **kwargs):
        count[0] = 0
        return base_reset(*args, **kwargs)

    env.step = step
    env.reset = reset


def make_action_filtered(env, action_filter):
    """Pass every action through ``action_filter`` before the env sees it."""
    _check_env(env, 'make_action_filtered')
    _check_filter('make_action_filtered', 'action_filter', action_filter)
    base_step = env.step

    def step(action):
        return base_step(action_filter(action))

    env.step = step


def make_reward_filtered(env, reward_filter):
    """Replace every reward ``r`` by ``reward_filter(r)``."""
    _check_env(env, 'make_reward_filtered')
    _check_filter('make_reward_filtered', 'reward_filter', reward_filter)
    base_step = env.step

    def step(action):
        result = list(base_step(action))
        result[1] = reward_filter(result[1])
        return tuple(result)

    env.step = step


def make_reward_clipped(env, low, high):
    """Clip every reward to ``[low, high]``."""
    if low > high:
        raise ValueError('make_reward_clipped: low must not exceed high, got '
                         'low={}, high={}'.format(low, high))
    make_reward_filtered(env, lambda r: float(numpy.clip(r, low, high)))
