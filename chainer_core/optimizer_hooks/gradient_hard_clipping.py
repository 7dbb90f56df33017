"""GradientHardClipping: clip every gradient element into bounds."""
from chainer_core.optimizer_hooks._scale import loss_scale_of


class GradientHardClipping:
    """Clip each gradient element into ``[lower_bound, upper_bound]``.

    Args:
        lower_bound (float): the lower bound.
        upper_bound (float): the upper bound.

    Attributes:
        lower_bound (float), upper_bound (float): the bounds.
        timing (str): ``'pre'`` (before the update) or ``'post'``.
    """

    name = 'GradientHardClipping'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, lower_bound, upper_bound):
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound

    def __call__(self, rule, param):
        g = param.grad
        if g is None:
            return
        scale = loss_scale_of(param)
        # Assigned into g rather than clip(out=g), which not every array
        # namespace takes (chainer-native's does not): the gradient stays
        # the same array, as callers holding it expect.
        g[...] = param.device.xp.clip(g, self.lower_bound * scale,
                                      self.upper_bound * scale)
