"""AdaGrad: per-element step sizes from the sum of squared gradients."""
from chainer_core._runtime import kernels
from chainer_core import optimizer

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.001
_default_hyperparam.eps = 1e-8


@kernels.declare('ada_grad_update')
def _ada_grad_update(xp, param, grad, h, lr, eps):
    """In place: h += grad^2; param -= lr grad / (sqrt(h) + eps); computed
    in the dtype of the state. Returns None."""
    # NumPy would multiply a float16 grad by a Python scalar in float16,
    # rounding each term before it reaches float32 state.
    grad = grad.astype(h.dtype, copy=False)
    h += grad * grad
    param -= lr * grad / (xp.sqrt(h) + eps)


class AdaGradRule(optimizer.UpdateRule):
    """``h += grad ** 2; param -= lr * grad / (sqrt(h) + eps)``.

    See :class:`AdaGrad` for the arguments.
    """

    def __init__(self, parent_hyperparam=None, lr=None, eps=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        if lr is not None:
            self.hyperparam.lr = lr
        if eps is not None:
            self.hyperparam.eps = eps

    def init_state(self, param):
        self.state['h'] = param.device.xp.zeros_like(param.array)

    def update_core(self, param):
        hp = self.hyperparam
        kernels.lookup('ada_grad_update', param.array)(
            param.array, param.grad, self.state['h'], hp.lr, hp.eps)


class AdaGrad(optimizer.GradientMethod):
    """AdaGrad (Duchi et al., JMLR 2011).

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
        return AdaGradRule(self.hyperparam)
