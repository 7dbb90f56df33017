"""RMSpropGraves: Alex Graves's RMSprop with momentum."""
from chainer_core._runtime import kernels
from chainer_core import optimizer

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 1e-4
_default_hyperparam.alpha = 0.95
_default_hyperparam.momentum = 0.9
_default_hyperparam.eps = 1e-4


@kernels.declare('rmsprop_graves_update')
def _rmsprop_graves_update(xp, param, grad, n, g, delta, lr, alpha, momentum,
                           eps):
    """In place: n = alpha n + (1 - alpha) grad^2;
    g = alpha g + (1 - alpha) grad;
    delta = momentum delta - lr grad / sqrt(n - g^2 + eps);
    param += delta; computed in the dtype of the state. Returns None."""
    # NumPy would multiply a float16 grad by a Python scalar in float16,
    # rounding each term before it reaches float32 state.
    grad = grad.astype(n.dtype, copy=False)
    n *= alpha
    n += (1 - alpha) * grad * grad
    g *= alpha
    g += (1 - alpha) * grad
    delta *= momentum
    delta -= lr * grad / xp.sqrt(n - g * g + eps)
    param += delta


class RMSpropGravesRule(optimizer.UpdateRule):
    """Graves's RMSprop update of one parameter: the step is normalised
    by a running estimate of the gradient's standard deviation::

        n = alpha * n + (1 - alpha) * grad ** 2
        g = alpha * g + (1 - alpha) * grad
        delta = momentum * delta - lr * grad / sqrt(n - g ** 2 + eps)
        param += delta

    See :class:`RMSpropGraves` for the arguments.
    """

    def __init__(self, parent_hyperparam=None, lr=None, alpha=None,
                 momentum=None, eps=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        if lr is not None:
            self.hyperparam.lr = lr
        if alpha is not None:
            self.hyperparam.alpha = alpha
        if momentum is not None:
            self.hyperparam.momentum = momentum
        if eps is not None:
            self.hyperparam.eps = eps

    def init_state(self, param):
        xp = param.device.xp
        self.state['n'] = xp.zeros_like(param.array)
        self.state['g'] = xp.zeros_like(param.array)
        self.state['delta'] = xp.zeros_like(param.array)

    def update_core(self, param):
        hp = self.hyperparam
        state = self.state
        kernels.lookup('rmsprop_graves_update', param.array)(
            param.array, param.grad, state['n'], state['g'], state['delta'],
            hp.lr, hp.alpha, hp.momentum, hp.eps)


class RMSpropGraves(optimizer.GradientMethod):
    """Alex Graves's RMSprop (arXiv:1308.0850, equations 38-41).

    Args:
        lr (float): the learning rate.
        alpha (float): the decay rate of the moments of the raw gradient.
        momentum (float): the decay rate of the update.
        eps (float): a small value for numerical stability.
    """

    lr = optimizer.HyperparameterProxy('lr')
    alpha = optimizer.HyperparameterProxy('alpha')
    momentum = optimizer.HyperparameterProxy('momentum')
    eps = optimizer.HyperparameterProxy('eps')

    def __init__(self, lr=_default_hyperparam.lr,
                 alpha=_default_hyperparam.alpha,
                 momentum=_default_hyperparam.momentum,
                 eps=_default_hyperparam.eps):
        super().__init__()
        self.hyperparam.lr = lr
        self.hyperparam.alpha = alpha
        self.hyperparam.momentum = momentum
        self.hyperparam.eps = eps

    def create_update_rule(self):
        return RMSpropGravesRule(self.hyperparam)
