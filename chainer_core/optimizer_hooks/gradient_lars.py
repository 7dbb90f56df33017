"""GradientLARS: layer-wise adaptive rate scaling of the gradients."""
from chainer_core.optimizer_hooks._scale import loss_scale_of


class GradientLARS:
    """Scale each gradient by a layer-wise trust ratio (LARS).

    From You et al., *Large Batch Training of Convolutional Networks*
    (arXiv:1708.03888). For a parameter ``w`` with gradient ``g``, when
    ``|w| > threshold``::

        g <- (g + weight_decay * w) * |w| / (eps + |g| + weight_decay * |w|)

    and otherwise ``g <- g + weight_decay * w``. The learning rate of the
    optimizer plays the part of the paper's global rate times its LARS
    coefficient.

    Args:
        threshold (float): the weight norm above which gradients are
            rescaled.
        weight_decay (float): the coefficient of the weight decay.
        eps (float): a small value for numerical stability.

    Attributes:
        threshold, weight_decay, eps (float): as above.
        timing (str): ``'pre'`` (before the update) or ``'post'``.
    """

    name = 'GradientLARS'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, threshold=1e-2, weight_decay=0.0, eps=1e-9):
        self.threshold = threshold
        self.weight_decay = weight_decay
        self.eps = eps

    def __call__(self, rule, param):
        p, g = param.array, param.grad
        if p is None or g is None:
            return
        xp = param.device.xp
        scale = loss_scale_of(param)
        p_norm = xp.linalg.norm(p)
        g_norm = xp.linalg.norm(g) / scale
        local_rate = p_norm / (self.eps + g_norm + self.weight_decay * p_norm)
        rate = xp.where(p_norm > self.threshold, local_rate, 1.0)
        g += (self.weight_decay * scale) * p
        g *= rate.astype(g.dtype)
