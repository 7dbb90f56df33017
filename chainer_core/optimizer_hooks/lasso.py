"""Lasso: L1 regularisation through the gradient."""
from chainer_core.optimizer_hooks._scale import loss_scale_of


class Lasso:
    """Add ``rate * sign(param)`` to each gradient.

    Args:
        rate (float): the coefficient of the L1 term.

    Attributes:
        rate (float): the coefficient.
        timing (str): ``'pre'`` (before the update) or ``'post'``.
    """

    name = 'Lasso'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, rate):
        self.rate = rate

    def __call__(self, rule, param):
        p, g = param.array, param.grad
        if p is None or g is None:
            return
        g += (self.rate * loss_scale_of(param)) * param.device.xp.sign(p)
