"""ManualScheduleTrigger: fire at given iterations or epochs."""
import warnings

from chainer_core.training.triggers.interval_trigger import _check_unit


class ManualScheduleTrigger:
    """Fire at each of ``points`` (iterations or epochs): at the iteration
    where the count reaches or first passes a point.

    Args:
        points (int, float, or list of them): when to fire.
        unit (str): ``'iteration'`` or ``'epoch'``.

    Attributes:
        finished (bool): True once the last point has fired (the trainer
            then skips the extension's ``initialize`` when resuming).
    """

    def __init__(self, points, unit):
        _check_unit('ManualScheduleTrigger', unit)
        points = list(points) if isinstance(points, (list, tuple)) else \
            [points]
        if not points:
            raise ValueError('ManualScheduleTrigger: points is empty')
        self.points = points
        self.unit = unit
        self.finished = False
        self._previous_iteration = 0
        self._previous_epoch_detail = 0.

    def __call__(self, trainer):
        updater = trainer.updater
        if self.unit == 'epoch':
            current = updater.epoch_detail
            previous = self._previous_epoch_detail
            if previous < 0:
                previous = updater.previous_epoch_detail or 0.
        else:
            current = updater.iteration
            previous = self._previous_iteration
            if previous < 0:
                previous = current - 1
        fire = any(previous < p <= current for p in self.points)
        if current >= max(self.points):
            self.finished = True
        self._previous_iteration = updater.iteration
        if hasattr(updater, 'epoch_detail'):
            self._previous_epoch_detail = updater.epoch_detail
        return fire

    def serialize(self, serializer):
        try:
            self._previous_iteration = int(serializer(
                'previous_iteration', self._previous_iteration))
            self._previous_epoch_detail = float(serializer(
                'previous_epoch_detail', self._previous_epoch_detail))
            self.finished = bool(serializer('finished', self.finished))
        except KeyError:
            warnings.warn('ManualScheduleTrigger: the snapshot lacks its '
                          'state; it is guessed from the updater')
            self._previous_iteration = -1
            self._previous_epoch_detail = -1.
