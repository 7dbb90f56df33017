"""PolynomialShift: decay an optimizer attribute polynomially to zero."""
from chainer_core.training.extensions import _shift


class PolynomialShift(_shift._Shift):
    """Set ``optimizer.<attr>`` to ``init * (1 - t / max_count) ** rate``
    at the t-th call (0 from ``max_count`` on).

    Args:
        attr (str): the attribute.
        rate (float): the exponent.
        max_count (int): the call at which the value reaches 0.
        init (float): the value at t = 0 (default: the attribute's value).
        target (float): stop the shift at this value.
        optimizer: the optimizer (default: the trainer's ``main`` one).
    """

    def __init__(self, attr, rate, max_count, init=None, target=None,
                 optimizer=None):
        if max_count <= 0:
            raise ValueError('PolynomialShift: max_count must be positive, '
                             'got {}'.format(max_count))
        super().__init__(attr, optimizer)
        self._rate = rate
        self._max_count = max_count
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
        decay = max(1 - self._t / self._max_count, 0)
        value = self._init * decay ** self._rate
        value = _shift._clamp(value, self._target, self._rate < 0)
        self._update_value(self._get_optimizer(trainer), value)
