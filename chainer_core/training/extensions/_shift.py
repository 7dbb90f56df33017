"""The common part of the extensions that shift an optimizer attribute."""
from chainer_core.training import extension


def _clamp(value, target, increasing):
    """``value`` stopped at ``target``: past it in the direction of the
    shift (a ratio test, so negative targets shift the same way)."""
    if target is None:
        return value
    ratio = value / target
    if (increasing and ratio > 1) or (not increasing and ratio < 1):
        return target
    return value


class _Shift(extension.Extension):
    """Sets ``optimizer.<attr>`` (the trainer's main optimizer unless one
    is given) at :meth:`initialize` and at every call; :meth:`serialize`
    keeps the step count and the last value for an exact resume."""

    def __init__(self, attr, optimizer):
        self._attr = attr
        self._optimizer = optimizer
        self._t = 0
        self._last_value = None

    def _get_optimizer(self, trainer):
        return self._optimizer or trainer.updater.get_optimizer('main')

    def _update_value(self, optimizer, value):
        setattr(optimizer, self._attr, value)
        self._last_value = value

    def serialize(self, serializer):
        self._t = int(serializer('_t', self._t))
        last = serializer('_last_value', self._last_value)
        self._last_value = None if last is None else _scalar(last)


def _scalar(value):
    item = getattr(value, 'item', None)
    return item() if item is not None else value
