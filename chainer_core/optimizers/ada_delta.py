"""AdaDelta: step sizes from running averages of gradients and updates."""
from chainer_core._runtime import kernels
from chainer_core import optimizer

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.rho = 0.95
_default_hyperparam.eps = 1e-6


@kernels.declare('ada_delta_update')
def _ada_delta_update(xp, param, grad, msg, msdx, rho, eps):
    """In place: msg = rho msg + (1 - rho) grad^2;
    dx = sqrt((msdx + eps) / (msg + eps)) grad;
    msdx = rho msdx + (1 - rho) dx^2; param -= dx; computed in the
    dtype of the state. Returns None."""
    # NumPy would multiply a float16 grad by a Python scalar in float16,
    # rounding each term before it reaches float32 state.
    grad = grad.astype(msg.dtype, copy=False)
    msg *= rho
    msg += (1 - rho) * grad * grad
    dx = xp.sqrt((msdx + eps) / (msg + eps)) * grad
    msdx *= rho
    msdx += (1 - rho) * dx * dx
    param -= dx


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
        hp = self.hyperparam
        kernels.lookup('ada_delta_update', param.array)(
            param.array, param.grad, self.state['msg'], self.state['msdx'],
            hp.rho, hp.eps)


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
