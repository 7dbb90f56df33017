"""InverseShift: decay an optimizer attribute as an inverse power."""
from chainer_core.training.extensions import _shift


class InverseShift(_shift._Shift):
    """Set ``optimizer.<attr>`` to ``init * (1 + gamma * t) ** (-power)``
    at the t-th call.

    Args:
        attr (str): the attribute.
        gamma (float): the time scale (not negative).
        power (float): the exponent.
        init (float): the value at t = 0 (default: the attribute's value).
        target (float): stop the shift at this value.
        optimizer: the optimizer (default: the trainer's ``main`` one).
    """

    def __init__(self, attr, gamma, power, init=None, target=None,
                 optimizer=None):
        if gamma < 0:
            raise ValueError('InverseShift: gamma must not be negative, got '
                             '{}'.format(gamma))
        super().__init__(attr, optimizer)
        self._gamma = gamma
        self._power = power
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
        value = self._init * (1 + self._gamma * self._t) ** (-self._power)
        value = _shift._clamp(value, self._target, self._power < 0)
        self._update_value(self._get_optimizer(trainer), value)
