"""SMORMS3: Simon Funk's RMSprop variant with adaptive memory."""
from chainer_core._runtime import kernels
from chainer_core import optimizer

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.001
_default_hyperparam.eps = 1e-16


@kernels.declare('smorms3_update')
def _smorms3_update(xp, param, grad, mem, g, g2, lr, eps):
    """In place: r = 1 / (mem + 1); g = (1 - r) g + r grad;
    g2 = (1 - r) g2 + r grad^2; x = g^2 / (g2 + eps);
    param -= grad min(lr, x) / (sqrt(g2) + eps); mem = 1 + mem (1 - x).
    Returns None."""
    r = 1 / (mem + 1)
    g *= 1 - r
    g += r * grad
    g2 *= 1 - r
    g2 += r * grad * grad
    x = g * g / (g2 + eps)
    param -= grad * xp.minimum(x, lr) / (xp.sqrt(g2) + eps)
    mem *= 1 - x
    mem += 1


class SMORMS3Rule(optimizer.UpdateRule):
    """The SMORMS3 update of one parameter::

        r = 1 / (mem + 1)
        g = (1 - r) * g + r * grad
        g2 = (1 - r) * g2 + r * grad ** 2
        x = g ** 2 / (g2 + eps)
        param -= grad * min(lr, x) / (sqrt(g2) + eps)
        mem = 1 + mem * (1 - x)

    See :class:`SMORMS3` for the arguments.
    """

    def __init__(self, parent_hyperparam=None, lr=None, eps=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        if lr is not None:
            self.hyperparam.lr = lr
        if eps is not None:
            self.hyperparam.eps = eps

    def init_state(self, param):
        xp = param.device.xp
        self.state['mem'] = xp.ones_like(param.array)
        self.state['g'] = xp.zeros_like(param.array)
        self.state['g2'] = xp.zeros_like(param.array)

    def update_core(self, param):
        hp = self.hyperparam
        state = self.state
        kernels.lookup('smorms3_update', param.array)(
            param.array, param.grad, state['mem'], state['g'], state['g2'],
            hp.lr, hp.eps)


class SMORMS3(optimizer.GradientMethod):
    """Simon Funk's SMORMS3
    (http://sifter.org/~simon/journal/20150420.html).

    Args:
        lr (float): the learning rate.
        eps (float): a small value for numerical stability.
    """

    lr = optimizer.HyperparameterProxy('lr')
    eps = optimizer.HyperparameterProxy('eps')

    def __init__(self, lr=_default_hyperparam.lr, eps=_default_hyperparam.eps):
        super().__init__()
        self.hyperparam.lr = lr
        self.hyperparam.eps = eps

    def create_update_rule(self):
        return SMORMS3Rule(self.hyperparam)
