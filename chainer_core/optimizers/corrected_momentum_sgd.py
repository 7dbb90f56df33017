"""CorrectedMomentumSGD: momentum SGD with the learning rate outside the
velocity."""
from chainer_core._runtime import kernels
from chainer_core import optimizer

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.momentum = 0.9


@kernels.declare('corrected_momentum_sgd_update')
def _corrected_momentum_sgd_update(xp, param, grad, v, lr, momentum):
    """In place: v = momentum v - grad; param += lr v. Returns None."""
    v *= momentum
    v -= grad
    param += lr * v


class CorrectedMomentumSGDRule(optimizer.UpdateRule):
    """``v = momentum * v - grad; param += lr * v``.

    See :class:`CorrectedMomentumSGD` for the arguments.
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
        kernels.lookup('corrected_momentum_sgd_update', param.array)(
            param.array, param.grad, self.state['v'], hp.lr, hp.momentum)


class CorrectedMomentumSGD(optimizer.GradientMethod):
    """Momentum SGD with momentum correction.

    The velocity accumulates raw gradients and the learning rate multiplies
    it at the update, so that changing the learning rate (warm-up, decay)
    does not leave the velocity scaled by the old one (Goyal et al.,
    *Accurate, Large Minibatch SGD*, section 3).

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
        return CorrectedMomentumSGDRule(self.hyperparam)
