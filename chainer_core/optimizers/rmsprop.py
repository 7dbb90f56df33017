"""RMSprop: step sizes from a running average of squared gradients."""
import numpy

from chainer_core import optimizer

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.alpha = 0.99
_default_hyperparam.eps = 1e-8
_default_hyperparam.eps_inside_sqrt = False


class RMSpropRule(optimizer.UpdateRule):
    """The RMSprop update of one parameter::

        ms = alpha * ms + (1 - alpha) * grad ** 2
        param -= lr * grad / (sqrt(ms) + eps)

    or ``sqrt(ms + eps)`` in the denominator with ``eps_inside_sqrt``.

    See :class:`RMSprop` for the arguments.
    """

    def __init__(self, parent_hyperparam=None, lr=None, alpha=None, eps=None,
                 eps_inside_sqrt=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        if lr is not None:
            self.hyperparam.lr = lr
        if alpha is not None:
            self.hyperparam.alpha = alpha
        if eps is not None:
            self.hyperparam.eps = eps
        if eps_inside_sqrt is not None:
            self.hyperparam.eps_inside_sqrt = eps_inside_sqrt

    def init_state(self, param):
        self.state['ms'] = param.device.xp.zeros_like(param.array)

    def update_core(self, param):
        grad = param.grad
        hp = self.hyperparam
        eps = grad.dtype.type(hp.eps)
        if hp.eps != 0 and eps == 0:
            raise ValueError('eps of RMSprop optimizer is too small for {} '
                             '({})'.format(numpy.dtype(grad.dtype).name,
                                           hp.eps))
        xp = param.device.xp
        ms = self.state['ms']
        ms *= hp.alpha
        ms += (1 - hp.alpha) * grad * grad
        if hp.eps_inside_sqrt:
            denom = xp.sqrt(ms + eps)
        else:
            denom = xp.sqrt(ms) + eps
        param.array -= hp.lr * grad / denom


class RMSprop(optimizer.GradientMethod):
    """RMSprop (Tieleman and Hinton, Coursera lecture 6.5).

    Args:
        lr (float): the learning rate.
        alpha (float): the decay rate of the average of squared gradients.
        eps (float): a small value for numerical stability.
        eps_inside_sqrt (bool): add ``eps`` under the square root (as
            TensorFlow does) instead of after it.
    """

    lr = optimizer.HyperparameterProxy('lr')
    alpha = optimizer.HyperparameterProxy('alpha')
    eps = optimizer.HyperparameterProxy('eps')
    eps_inside_sqrt = optimizer.HyperparameterProxy('eps_inside_sqrt')

    def __init__(self, lr=_default_hyperparam.lr,
                 alpha=_default_hyperparam.alpha, eps=_default_hyperparam.eps,
                 eps_inside_sqrt=_default_hyperparam.eps_inside_sqrt):
        super().__init__()
        self.hyperparam.lr = lr
        self.hyperparam.alpha = alpha
        self.hyperparam.eps = eps
        self.hyperparam.eps_inside_sqrt = eps_inside_sqrt

    def create_update_rule(self):
        return RMSpropRule(self.hyperparam)
