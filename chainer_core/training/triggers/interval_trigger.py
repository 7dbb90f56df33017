"""IntervalTrigger: fire every ``period`` iterations or epochs."""
import warnings


def _check_unit(name, unit):
    if unit not in ('epoch', 'iteration'):
        raise ValueError("{}: unit must be 'epoch' or 'iteration', got {!r}"
                         .format(name, unit))


class IntervalTrigger:
    """Fire once every ``period`` units: at the iteration where the count
    (iterations, or the fractional epoch count) crosses a multiple of
    ``period``.

    Args:
        period (int or float): the interval.
        unit (str): ``'iteration'`` or ``'epoch'`` (fractional periods of
            epochs are allowed).
    """

    def __init__(self, period, unit):
        _check_unit('IntervalTrigger', unit)
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
            previous = self._previous_epoch_detail
            if previous < 0:
                previous = updater.previous_epoch_detail or 0.
            fire = previous // self.period != epoch_detail // self.period
        else:
            iteration = updater.iteration
            previous = self._previous_iteration
            if previous < 0:
                previous = iteration - 1
            fire = previous // self.period != iteration // self.period
        self._previous_iteration = updater.iteration
        if hasattr(updater, 'epoch_detail'):
            self._previous_epoch_detail = updater.epoch_detail
        return fire

    def get_training_length(self):
        return self.period, self.unit

    def serialize(self, serializer):
        try:
            self._previous_iteration = int(serializer(
                'previous_iteration', self._previous_iteration))
        except KeyError:
            warnings.warn('IntervalTrigger: the snapshot lacks its state; '
                          'it is guessed from the updater')
            self._previous_iteration = -1
        try:
            self._previous_epoch_detail = float(serializer(
                'previous_epoch_detail', self._previous_epoch_detail))
        except KeyError:
            self._previous_epoch_detail = -1.

    def __str__(self):
        return '{}({}, {!r})'.format(type(self).__name__, self.period,
                                     self.unit)
