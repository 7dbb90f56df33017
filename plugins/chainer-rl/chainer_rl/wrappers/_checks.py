"""Argument checks shared by the wrappers."""
import gymnasium


def check_env(owner, env):
    """Raise TypeError unless ``env`` is a gymnasium environment."""
    if not isinstance(env, gymnasium.Env):
        raise TypeError('{}: env must be a gymnasium.Env (or wrapper), got '
                        '{}'.format(owner, type(env).__name__))


def check_positive_int(owner, name, value):
    """Return ``value`` as int, or raise ValueError if it is not >= 1."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError('{}: {} must be an integer >= 1, got {!r}'.format(
            owner, name, value))
    return value


def check_channel_order(owner, channel_order):
    """Return the stacking axis of ``'hwc'`` (2) or ``'chw'`` (0)."""
    axes = {'hwc': 2, 'chw': 0}
    if channel_order not in axes:
        raise ValueError("{}: channel_order must be 'hwc' or 'chw', got {!r}"
                         .format(owner, channel_order))
    return axes[channel_order]
