"""LinearShift: move an optimizer attribute linearly between two values."""
from chainer_core.training.extensions import _shift


class LinearShift(_shift._Shift):
    """Set ``optimizer.<attr>`` to ``v1`` up to call ``t1``, to ``v2`` from
    call ``t2`` on, and linearly in between.

    Args:
        attr (str): the attribute.
        value_range (tuple): ``(v1, v2)``.
        time_range (tuple): ``(t1, t2)`` in calls (with the default
            trigger, iterations).
        optimizer: the optimizer (default: the trainer's ``main`` one).
    """

    def __init__(self, attr, value_range, time_range, optimizer=None):
        t1, t2 = time_range
        if t2 <= t1:
            raise ValueError('LinearShift: time_range must be increasing, '
                             'got {}'.format(time_range))
        super().__init__(attr, optimizer)
        self._value_range = value_range
        self._time_range = time_range

    def initialize(self, trainer):
        value = self._compute_next_value() if self._last_value is None \
            else self._last_value
        self._update_value(self._get_optimizer(trainer), value)

    def __call__(self, trainer):
        self._t += 1
        self._update_value(self._get_optimizer(trainer),
                           self._compute_next_value())

    def _compute_next_value(self):
        t1, t2 = self._time_range
        v1, v2 = self._value_range
        if self._t <= t1:
            return v1
        if self._t >= t2:
            return v2
        return v1 + (v2 - v1) * (self._t - t1) / (t2 - t1)
