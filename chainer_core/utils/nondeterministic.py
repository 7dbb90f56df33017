"""Flagging nondeterministic computations (Chainer's
``chainer.utils.nondeterministic``)."""
import warnings

from chainer_core import configuration


def nondeterministic(f_name):
    """Warn that ``f_name`` may give different results from run to run,
    when ``chainer.config.warn_nondeterministic`` is on.

    Args:
        f_name (str): the computation, e.g. ``'F.scatter_add'``.

    Example:
        >>> with chainer.using_config('warn_nondeterministic', True):
        ...     nondeterministic('my_op')  # warns
    """
    if configuration.config.warn_nondeterministic:
        warnings.warn(
            'Potentially non-deterministic code is being executed while '
            'config.warn_nondeterministic set. Source: {}'.format(f_name),
            stacklevel=2)
