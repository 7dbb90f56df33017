"""IntervalTrigger: fire every ``period`` iterations or epochs."""


class IntervalTrigger:
    """Fire once every ``period`` units.

    Args:
        period (int or float): the interval.
        unit (str): ``'iteration'`` or ``'epoch'`` (fractional periods of
            epochs are allowed).
    """

    def __init__(self, period, unit):
        if unit not in ('epoch', 'iteration'):
            raise ValueError("IntervalTrigger: unit must be 'epoch' or "
                             "'iteration', got {!r}".format(unit))
        if period <= 0:
            raise ValueError('IntervalTrigger: period must be positive, got '
                             '{}'.format(period))
        self.period = period
        self.unit = unit
        self._previous_iteration = 0
        self._previous_epoch_detail = 0.

    def __call__(self, trainer):
        updater = trainer.updater
        if self.unit == 'epoch':
            epoch_detail = updater.epoch_detail
            fire = self._previous_epoch_detail // self.period != \
                epoch_detail // self.period
        else:
            iteration = updater.iteration
            fire = self._previous_iteration // self.period != \
                iteration // self.period
        self._previous_iteration = updater.iteration
        self._previous_epoch_detail = updater.epoch_detail
        return fire

    def get_training_length(self):
        return self.period, self.unit

    def serialize(self, serializer):
        self._previous_iteration = serializer('previous_iteration',
                                              self._previous_iteration)
        self._previous_epoch_detail = serializer(
            'previous_epoch_detail', self._previous_epoch_detail)

    def __str__(self):
        return '{}({}, {!r})'.format(type(self).__name__, self.period,
                                     self.unit)


def get_trigger(trigger):
    """A trigger from a callable, ``(period, unit)`` or None (never)."""
    if callable(trigger):
        return trigger
    if trigger is None:
        return _never
    return IntervalTrigger(*trigger)


def _never(trainer):
    return False
