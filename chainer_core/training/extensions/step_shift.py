"""StepShift: multiply an optimizer attribute by gamma every step calls."""
import math

from chainer_core.training.extensions import _shift


class StepShift(_shift._Shift):
    """Set ``optimizer.<attr>`` to ``init * gamma ** floor(t / step)`` at
    the t-th call.

    Args:
        attr (str): the attribute.
        gamma (float): the factor per step.
        step (int): calls per step.
        init (float): the value at t = 0 (default: the attribute's value).
        target (float): stop the shift at this value.
        optimizer: the optimizer (default: the trainer's ``main`` one).
    """

    def __init__(self, attr, gamma, step, init=None, target=None,
                 optimizer=None):
        if step <= 0:
            raise ValueError('StepShift: step must be positive, got {}'
                             .format(step))
        super().__init__(attr, optimizer)
        self._gamma = gamma
        self._step = step
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
        value = self._init * self._gamma ** math.floor(self._t / self._step)
        value = _shift._clamp(value, self._target, self._gamma > 1)
        self._update_value(self._get_optimizer(trainer), value)
