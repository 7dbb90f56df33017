"""WeightDecay: L2 regularisation through the gradient."""
from chainer_core.optimizer_hooks._scale import loss_scale_of


class WeightDecay:
    """Add ``rate * param`` to each gradient.

    Args:
        rate (float): the coefficient of the weight decay.

    Attributes:
        rate (float): the coefficient.
        timing (str): ``'pre'`` (before the update) or ``'post'``.
    """

    name = 'WeightDecay'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, rate):
        self.rate = rate

    def __call__(self, rule, param):
        p, g = param.array, param.grad
        if p is None or g is None:
            return
        g += (self.rate * loss_scale_of(param)) * p
