"""Triggers firing when a reported value reaches a new best."""
from chainer_core import reporter


def _interval(trigger):
    from chainer_core.training.triggers import get_trigger
    return get_trigger(trigger)


class BestValueTrigger:
    """Fire when the mean of ``key`` over the last interval of ``trigger``
    is better than every earlier one (the first interval always fires).

    Args:
        key (str): the observed key (e.g. ``'validation/main/loss'``).
        compare: ``compare(best, new)`` is True when ``new`` is better.
        trigger: the checking interval (default every epoch).

    Raises:
        KeyError: at a check, when ``key`` was never reported in the
            interval (naming the keys that were).
    """

    def __init__(self, key, compare, trigger=(1, 'epoch')):
        self._key = key
        self._best_value = None
        self._interval_trigger = _interval(trigger)
        self._compare = compare
        self._init_summary()

    @property
    def best_value(self):
        """The best mean so far (None before the first check)."""
        return self._best_value

    def __call__(self, trainer):
        observation = trainer.observation
        key = self._key
        if key in observation:
            self._summary.add({key: observation[key]})
        if not self._interval_trigger(trainer):
            return False
        stats = self._summary.compute_mean()
        if key not in stats:
            raise KeyError('{}: the key {!r} was not reported in the last '
                           'interval (reported: {})'.format(
                               type(self).__name__, key,
                               sorted(observation)))
        value = float(stats[key])
        self._init_summary()
        if self._best_value is None or self._compare(self._best_value, value):
            self._best_value = value
            return True
        return False

    def _init_summary(self):
        self._summary = reporter.DictSummary()

    def serialize(self, serializer):
        if hasattr(self._interval_trigger, 'serialize'):
            self._interval_trigger.serialize(serializer['interval_trigger'])
        self._summary.serialize(serializer['summary'])
        best = serializer('best_value', self._best_value)
        self._best_value = None if best is None else float(best)


class MaxValueTrigger(BestValueTrigger):
    """Fire when ``key`` reaches a new maximum (checked every
    ``trigger``)."""

    def __init__(self, key, trigger=(1, 'epoch')):
        super().__init__(key, lambda best, new: new > best, trigger)


class MinValueTrigger(BestValueTrigger):
    """Fire when ``key`` reaches a new minimum (checked every
    ``trigger``)."""

    def __init__(self, key, trigger=(1, 'epoch')):
        super().__init__(key, lambda best, new: new < best, trigger)
