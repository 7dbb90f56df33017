"""NesterovAG: Nesterov's accelerated gradient."""
from chainer_core._runtime import kernels
from chainer_core import optimizer

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.momentum = 0.9


@kernels.declare('nesterov_ag_update')
def _nesterov_ag_update(xp, param, grad, v, lr, momentum):
    """In place: v = momentum v - lr grad;
    param += momentum^2 v - (1 + momentum) lr grad; computed in the dtype
    of the state. Returns None."""
    # NumPy would multiply a float16 grad by a Python scalar in float16,
    # rounding each term before it reaches float32 state.
    grad = grad.astype(v.dtype, copy=False)
    v *= momentum
    v -= lr * grad
    param += momentum * momentum * v
    param -= (1 + momentum) * lr * grad


class NesterovAGRule(optimizer.UpdateRule):
    """Nesterov's accelerated gradient in the form of Bengio et al.
    (arXiv:1212.0901), which needs the gradient at the parameter only::

        v = momentum * v - lr * grad
        param += momentum ** 2 * v - (1 + momentum) * lr * grad

    See :class:`NesterovAG` for the arguments.
    """

    def __init__(self, parent_hyperparam=None, lr=None, momentum=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        if lr is not None:
            self.hyperparam.lr = lr
        if momentum is not None:
            self.hyperparam.momentum = momentum

    def init_state(self, param):
        self.state['v'] = param.device.xp.zeros_like(param.array)

    def update_core(self, param):
        hp = self.hyperparam
        kernels.lookup('nesterov_ag_update', param.array)(
            param.array, param.grad, self.state['v'], hp.lr, hp.momentum)


class NesterovAG(optimizer.GradientMethod):
    """Nesterov's accelerated gradient.

    Args:
        lr (float): the learning rate.
        momentum (float): the momentum factor.
    """

    lr = optimizer.HyperparameterProxy('lr')
    momentum = optimizer.HyperparameterProxy('momentum')

    def __init__(self, lr=_default_hyperparam.lr,
                 momentum=_default_hyperparam.momentum):
        super().__init__()
        self.hyperparam.lr = lr
        self.hyperparam.momentum = momentum

    def create_update_rule(self):
        return NesterovAGRule(self.hyperparam)
