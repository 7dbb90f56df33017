"""AdaDelta: step sizes from running averages of gradients and updates."""
from chainer_core import optimizer

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.rho = 0.95
_default_hyperparam.eps = 1e-6


class AdaDeltaRule(optimizer.UpdateRule):
    """Zeiler's ADADELTA update of one parameter::

        msg = rho * msg + (1 - rho) * grad ** 2
        dx = sqrt((msdx + eps) / (msg + eps)) * grad
        msdx = rho * msdx + (1 - rho) * dx ** 2
        param -= dx

    See :class:`AdaDelta` for the arguments.
    """

    def __init__(self, parent_hyperparam=None, rho=None, eps=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        if rho is not None:
            self.hyperparam.rho = rho
        if eps is not None:
            self.hyperparam.eps = eps

    def init_state(self, param):
        xp = param.device.xp
        self.state['msg'] = xp.zeros_like(param.array)
        self.state['msdx'] = xp.zeros_like(param.array)

    def update_core(self, param):
        grad = param.grad
        msg, msdx = self.state['msg'], self.state['msdx']
        rho, eps = self.hyperparam.rho, self.hyperparam.eps
        msg *= rho
        msg += (1 - rho) * grad * grad
        dx = param.device.xp.sqrt((msdx + eps) / (msg + eps)) * grad
        msdx *= rho
        msdx += (1 - rho) * dx * dx
        param.array -= dx


class AdaDelta(optimizer.GradientMethod):
    """Zeiler's ADADELTA (arXiv:1212.5701).

    Args:
        rho (float): the decay rate of the running averages.
        eps (float): a small value for numerical stability.
    """

    rho = optimizer.HyperparameterProxy('rho')
    eps = optimizer.HyperparameterProxy('eps')

    def __init__(self, rho=_default_hyperparam.rho,
                 eps=_default_hyperparam.eps):
        super().__init__()
        self.hyperparam.rho = rho
        self.hyperparam.eps = eps

    def create_update_rule(self):
        return AdaDeltaRule(self.hyperparam)
