"""SGD: plain stochastic gradient descent."""
from chainer_core._runtime import kernels
from chainer_core import optimizer

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01


@kernels.declare('sgd_update')
def _sgd_update(xp, param, grad, lr):
    """In place: param -= lr * grad. Returns None."""
    param -= lr * grad


class SGDRule(optimizer.UpdateRule):
    """``param -= lr * grad``."""

    def __init__(self, parent_hyperparam=None, lr=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        if lr is not None:
            self.hyperparam.lr = lr

    def update_core(self, param):
        data = param._data
        kernels.lookup('sgd_update', data)(data, param.grad,
                                           self.hyperparam.lr)


class SGD(optimizer.GradientMethod):
    """Stochastic gradient descent.

    Args:
        lr (float): learning rate.
    """

    lr = optimizer.HyperparameterProxy('lr')

    def __init__(self, lr=_default_hyperparam.lr):
        super().__init__()
        self.hyperparam.lr = lr

    def create_update_rule(self):
        return SGDRule(self.hyperparam)
