"""Helpers of the training loop (Chainer's ``chainer.training.util``)."""
from chainer_core.training.triggers.interval_trigger import IntervalTrigger


def get_trigger(trigger):
    """A trigger from a callable (returned as is), ``(period, unit)`` (an
    :class:`IntervalTrigger`) or None (a trigger that never fires)."""
    if callable(trigger):
        return trigger
    if trigger is None:
        return _never_fire_trigger
    try:
        period, unit = trigger
    except (TypeError, ValueError):
        raise TypeError('a trigger must be callable, None or (period, unit), '
                        'got {!r}'.format(trigger)) from None
    return IntervalTrigger(period, unit)


def _never_fire_trigger(trainer):
    return False
