"""MomentumSGD: SGD with (heavy-ball) momentum."""
from chainer_core._runtime import kernels
from chainer_core import optimizer

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.momentum = 0.9


@kernels.declare('momentum_sgd_update')
def _momentum_sgd_update(xp, param, grad, v, lr, momentum):
    """In place: v = momentum * v - lr * grad; param += v; computed in the
    dtype of the state. Returns None."""
    # NumPy would multiply a float16 grad by a Python scalar in float16,
    # rounding each term before it reaches float32 state.
    grad = grad.astype(v.dtype, copy=False)
    v *= momentum
    v -= lr * grad
    param += v


class MomentumSGDRule(optimizer.UpdateRule):
    """``v = momentum * v - lr * grad; param += v``."""

    def __init__(self, parent_hyperparam=None, lr=None, momentum=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        if lr is not None:
            self.hyperparam.lr = lr
        if momentum is not None:
            self.hyperparam.momentum = momentum

    def init_state(self, param):
        self.state['v'] = param.xp.zeros_like(param.array)

    def update_core(self, param):
        hp = self.hyperparam
        kernels.lookup('momentum_sgd_update', param.array)(
            param.array, param.grad, self.state['v'], hp.lr, hp.momentum)


class MomentumSGD(optimizer.GradientMethod):
    """Momentum SGD.

    Args:
        lr (float): learning rate.
        momentum (float): momentum factor.
    """

    lr = optimizer.HyperparameterProxy('lr')
    momentum = optimizer.HyperparameterProxy('momentum')

    def __init__(self, lr=_default_hyperparam.lr,
                 momentum=_default_hyperparam.momentum):
        super().__init__()
        self.hyperparam.lr = lr
        self.hyperparam.momentum = momentum

    def create_update_rule(self):
        return MomentumSGDRule(self.hyperparam)
