"""ExponentialShift: multiply an optimizer attribute by a rate per call."""
from chainer_core.training.extensions import _shift


class ExponentialShift(_shift._Shift):
    """Set ``optimizer.<attr>`` to ``init * rate ** t`` at the t-th call
    (t counts calls; with the default trigger, iterations).

    Args:
        attr (str): the attribute (``'lr'``, ``'alpha'``...).
        rate (float): the factor per call (not negative).
        init (float): the value at t = 0 (default: the attribute's value at
            :meth:`initialize`).
        target (float): stop the shift at this value.
        optimizer: the optimizer (default: the trainer's ``main`` one).
    """

    def __init__(self, attr, rate, init=None, target=None, optimizer=None):
        if rate < 0:
            raise ValueError('ExponentialShift: rate must not be negative, '
                             'got {}'.format(rate))
        super().__init__(attr, optimizer)
        self._rate = rate
        self._init = init
        self._target = target

    def initialize(self, trainer):
        optimizer = self._get_optimizer(trainer)
        if self._init is None:
            self._init = getattr(optimizer, self._attr)
        self._update_value(optimizer, self._init if self._last_value is None
                           else self._last_value)

    def __call__(self, trainer):
        self._t += 1
        value = self._init * self._rate ** self._t
        value = _shift._clamp(value, self._target, self._rate > 1)
        self._update_value(self._get_optimizer(trainer), value)
