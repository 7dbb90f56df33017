"""MicroAverage: a ratio of sums of two reported values."""
from chainer_core import reporter
from chainer_core.training import extension


class MicroAverage(extension.Extension):
    """Report ``sum(numerator) / sum(denominator)`` over each ``trigger``
    interval as ``result_key`` (e.g. correct predictions over examples, a
    micro average, where averaging per-batch accuracies would weight small
    batches too much).

    Args:
        numerator_key (str): the observed key summed on top.
        denominator_key (str): the observed key summed below.
        result_key (str): the reported key.
        trigger: the averaging interval (default every epoch).
    """

    priority = extension.PRIORITY_EDITOR

    def __init__(self, numerator_key, denominator_key, result_key,
                 trigger=(1, 'epoch')):
        from chainer_core.training.util import get_trigger
        self._trigger = get_trigger(trigger)
        self._numerator_key = numerator_key
        self._denominator_key = denominator_key
        self._result_key = result_key
        self._numerator = 0.
        self._denominator = 0.

    def __call__(self, trainer):
        observation = trainer.observation
        if self._numerator_key in observation and \
                self._denominator_key in observation:
            self._numerator += _value(observation[self._numerator_key])
            self._denominator += _value(observation[self._denominator_key])
        if self._trigger(trainer) and self._denominator:
            result = self._numerator / self._denominator
            self._numerator = 0.
            self._denominator = 0.
            reporter.report({self._result_key: result})

    def serialize(self, serializer):
        if hasattr(self._trigger, 'serialize'):
            self._trigger.serialize(serializer['_trigger'])
        self._numerator = float(serializer('_numerator', self._numerator))
        self._denominator = float(serializer('_denominator',
                                             self._denominator))


def _value(v):
    return float(getattr(v, 'array', v))
