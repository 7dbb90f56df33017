"""WarmupShift: raise an optimizer attribute linearly at the start."""
from chainer_core.training.extensions import _shift


class WarmupShift(_shift._Shift):
    """Set ``optimizer.<attr>`` to ``warmup_start`` at the start and move
    it linearly to ``init`` over ``warmup_iter`` calls:
    ``warmup_start + (init - warmup_start) * t / warmup_iter`` at the t-th
    call, ``init`` afterwards (the attribute is then left alone).

    Args:
        attr (str): the attribute.
        warmup_start (float): the value at the start.
        warmup_iter (int): the length of the warm-up in calls.
        init (float): the value reached (default: the attribute's value).
        optimizer: the optimizer (default: the trainer's ``main`` one).
    """

    def __init__(self, attr, warmup_start, warmup_iter, init=None,
                 optimizer=None):
        if warmup_iter <= 0:
            raise ValueError('WarmupShift: warmup_iter must be positive, got '
                             '{}'.format(warmup_iter))
        super().__init__(attr, optimizer)
        self._warmup_start = warmup_start
        self._warmup_iter = warmup_iter
        self._init = init

    def initialize(self, trainer):
        optimizer = self._get_optimizer(trainer)
        if self._init is None:
            self._init = getattr(optimizer, self._attr)
        self._update_value(optimizer, self._warmup_start
                           if self._last_value is None else self._last_value)

    def __call__(self, trainer):
        self._t += 1
        if self._t > self._warmup_iter:
            return
        value = self._warmup_start + (self._init - self._warmup_start) * \
            self._t / self._warmup_iter
        self._update_value(self._get_optimizer(trainer), value)
