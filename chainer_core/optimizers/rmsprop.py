"""RMSprop: step sizes from a running average of squared gradients."""
import numpy

from chainer_core._runtime import kernels
from chainer_core import optimizer

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.alpha = 0.99
_default_hyperparam.eps = 1e-8
_default_hyperparam.eps_inside_sqrt = False


@kernels.declare('rmsprop_update')
def _rmsprop_update(xp, param, grad, ms, lr, alpha, eps, eps_inside_sqrt):
    """In place: ms = alpha ms + (1 - alpha) grad^2;
    param -= lr grad / (sqrt(ms) + eps), or lr grad / sqrt(ms + eps) when
    eps_inside_sqrt; computed in the dtype of the state. Returns None."""
    # NumPy would multiply a float16 grad by a Python scalar in float16,
    # rounding each term before it reaches float32 state.
    grad = grad.astype(ms.dtype, copy=False)
    ms *= alpha
    ms += (1 - alpha) * grad * grad
    if eps_inside_sqrt:
        denom = xp.sqrt(ms + eps)
    else:
        denom = xp.sqrt(ms) + eps
    param -= lr * grad / denom


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
        hp = self.hyperparam
        dtype = numpy.dtype(param.dtype)
        if hp.eps != 0 and dtype.type(hp.eps) == 0:
            # eps rounding to 0 would divide by zero where ms is 0.
            raise ValueError('eps of RMSprop optimizer is too small for {} '
                             '({})'.format(dtype.name, hp.eps))
        kernels.lookup('rmsprop_update', param.array)(
            param.array, param.grad, self.state['ms'], hp.lr, hp.alpha,
            hp.eps, hp.eps_inside_sqrt)


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
