"""How the loops talk to environments.

Single envs follow gymnasium (``reset`` -> ``(obs, info)``, ``step`` -> five
values); envs with the older four-value ``step`` and ``info['needs_reset']``
are accepted too. Vector envs follow ``chainer_rl.envs.VectorEnv``.
"""
import gymnasium
import numpy as np


def check_int(owner, name, value, minimum, allow_none=False):
    """Return ``value`` as int, or raise ValueError naming ``owner``."""
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(
            value, (int, np.integer)) or value < minimum:
        raise ValueError('{}: {} must be an integer >= {}{}, got {!r}'.format(
            owner, name, minimum, ' or None' if allow_none else '', value))
    return int(value)


def check_n_steps_episodes(owner, n_steps, n_episodes, prefix=''):
    """Exactly one of the two evaluation budgets must be given."""
    if (n_steps is None) == (n_episodes is None):
        raise ValueError(
            '{}: exactly one of {p}n_steps and {p}n_episodes must be given '
            '(the other None), got {p}n_steps={!r} and {p}n_episodes={!r}'
            .format(owner, n_steps, n_episodes, p=prefix))
    check_int(owner, prefix + 'n_steps', n_steps, 1, allow_none=True)
    check_int(owner, prefix + 'n_episodes', n_episodes, 1, allow_none=True)


def is_vector_env(env):
    """Whether ``env`` is a vector env of this package (or duck-typed)."""
    if isinstance(env, gymnasium.vector.VectorEnv):
        return True
    if isinstance(env, gymnasium.Env):
        return False
    return hasattr(env, 'num_envs') and callable(getattr(env, 'step', None))


def check_single_env(owner, env):
    """Raise TypeError unless ``env`` looks like one environment."""
    if is_vector_env(env) or not callable(getattr(env, 'step', None)) or \
            not callable(getattr(env, 'reset', None)):
        raise TypeError('{}: env must be a single environment (gymnasium.Env)'
                        ', got {}'.format(owner, type(env).__name__))


def check_vector_env(owner, env):
    """Raise TypeError unless ``env`` is a chainer_rl vector env."""
    if isinstance(env, gymnasium.vector.VectorEnv):
        raise TypeError(
            '{}: gymnasium.vector envs reset themselves automatically; wrap '
            'the envs in chainer_rl.envs.SerialVectorEnv or '
            'MultiprocessVectorEnv instead'.format(owner))
    if not is_vector_env(env):
        raise TypeError('{}: env must be a vector env (chainer_rl.envs.'
                        'SerialVectorEnv or MultiprocessVectorEnv), got {}'
                        .format(owner, type(env).__name__))


def reset(env):
    """Reset ``env`` and return the first observation."""
    result = env.reset()
    if isinstance(env, gymnasium.Env) or (
            isinstance(result, tuple) and len(result) == 2
            and isinstance(result[1], dict)):
        return result[0]
    return result


def step(env, action):
    """Step ``env``; return ``(obs, reward, done, needs_reset, info)``.

    ``done`` is a true terminal state; ``needs_reset`` an episode cut short.
    """
    result = env.step(action)
    if not isinstance(result, tuple) or len(result) not in (4, 5):
        raise TypeError('env.step must return (obs, reward, terminated, '
                        'truncated, info), got {!r}'.format(
                            type(result).__name__))
    if len(result) == 5:
        obs, reward, terminated, truncated, info = result
    else:
        obs, reward, terminated, info = result
        truncated = False
    info = info if isinstance(info, dict) else {}
    needs_reset = bool(truncated) or bool(info.get('needs_reset', False))
    return obs, reward, bool(terminated), needs_reset, info
