"""GradientClipping: rescale all gradients to a maximum L2 norm."""
import numpy

from chainer_core.optimizer_hooks._scale import loss_scale_of


def _squared_norm(g, xp):
    x = g.ravel()
    if x.dtype == numpy.float16:
        # A sum of squares overflows float16 at a norm of about 256.
        x = x.astype(numpy.float32)
    return xp.dot(x, x)


class GradientClipping:
    """Scale all gradients together so that their joint L2 norm is at most
    ``threshold``.

    Called once per update with the optimizer (not per parameter).

    Args:
        threshold (float): the L2 norm threshold.

    Attributes:
        threshold (float): the threshold.
        timing (str): ``'pre'`` (before the update) or ``'post'``.
    """

    name = 'GradientClipping'
    timing = 'pre'

    def __init__(self, threshold):
        self.threshold = threshold

    def __call__(self, opt):
        params = [p for p in opt.target.params(False) if p.grad is not None]
        if not params:
            return
        devices = {p.device for p in params}
        threshold = self.threshold * loss_scale_of(params[0])
        if len(devices) == 1:
            xp = params[0].device.xp
            sqnorm = sum(_squared_norm(p.grad, xp) for p in params)
            rate = threshold / xp.sqrt(sqnorm)
            if xp is numpy:
                if rate >= 1:
                    return
            else:
                # No host synchronisation: multiplying by 1 is cheaper.
                rate = xp.minimum(rate, 1)
        else:
            sqnorm = sum(float(_squared_norm(p.grad, p.device.xp))
                         for p in params)
            rate = float(threshold / numpy.sqrt(sqnorm))
            if rate >= 1:
                return
        for param in params:
            g = param.grad
            g *= rate
