"""MultistepShift: multiply an optimizer attribute by gamma at given
calls."""
from chainer_core.training.extensions import _shift


class MultistepShift(_shift._Shift):
    """Set ``optimizer.<attr>`` to ``init * gamma ** k`` where k is the
    number of entries of ``step_value`` reached so far (the t-th call
    reaches the entries <= t).

    Args:
        attr (str): the attribute.
        gamma (float): the factor at each step.
        step_value (list of int): the calls at which to step (increasing).
        init (float): the value before the first step (None: the
            attribute's value).
        optimizer: the optimizer (default: the trainer's ``main`` one).
    """

    def __init__(self, attr, gamma, step_value, init, optimizer=None):
        super().__init__(attr, optimizer)
        self._gamma = gamma
        self._step_value = list(step_value)
        self._init = init
        self._current_step = 0

    def initialize(self, trainer):
        optimizer = self._get_optimizer(trainer)
        if self._init is None:
            self._init = getattr(optimizer, self._attr)
        self._update_value(optimizer,
                           self._init * self._gamma ** self._current_step)

    def __call__(self, trainer):
        self._t += 1
        while (self._current_step < len(self._step_value) and
               self._t >= self._step_value[self._current_step]):
            self._current_step += 1
        self._update_value(self._get_optimizer(trainer),
                           self._init * self._gamma ** self._current_step)

    def serialize(self, serializer):
        super().serialize(serializer)
        self._current_step = int(serializer('_current_step',
                                            self._current_step))
