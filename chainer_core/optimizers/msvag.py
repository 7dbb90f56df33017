"""MSVAG: M-SVAG, momentum SGD with variance-adapted step sizes."""
import numpy

from chainer_core._runtime import kernels
from chainer_core import optimizer

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.1
_default_hyperparam.beta = 0.9
_default_hyperparam.eta = 1.0
_default_hyperparam.weight_decay_rate = 0


@kernels.declare('msvag_update')
def _msvag_update(xp, param, grad, m, v, lr, beta, bias, rho, eta,
                  weight_decay_rate):
    """In place: m += (1 - beta) (grad - m); v += (1 - beta) (grad^2 - v);
    with mt = m / bias, vt = v / bias and s = (vt - mt^2) / (1 - rho),
    factor = mt^2 / (mt^2 + rho s) clipped into [0, 1] (0 where NaN);
    param -= eta (lr factor mt + weight_decay_rate param). bias is
    1 - beta^t. Computed in the dtype of the state. Returns None."""
    # NumPy would multiply a float16 grad by a Python scalar in float16,
    # rounding each term before it reaches float32 state.
    grad = grad.astype(m.dtype, copy=False)
    m += (1 - beta) * (grad - m)
    v += (1 - beta) * (grad * grad - v)
    mt = m / bias
    vt = v / bias
    mt2 = mt * mt
    s = (vt - mt2) / (1 - rho)
    # 0 / 0 where both moments vanish is expected: the factor is 0 there.
    with numpy.errstate(divide='ignore', invalid='ignore'):
        factor = xp.clip(mt2 / (mt2 + rho * s), 0, 1)
    factor = xp.where(xp.isnan(factor), 0, factor).astype(
        param.dtype, copy=False)
    param -= eta * (lr * mt * factor + weight_decay_rate * param)


class MSVAGRule(optimizer.UpdateRule):
    """The M-SVAG update of one parameter (Balles and Hennig,
    arXiv:1705.07774), with decoupled weight decay.

    With bias-corrected moments ``mt = m / (1 - beta^t)`` and
    ``vt = v / (1 - beta^t)``, the variance estimate
    ``s = (vt - mt^2) / (1 - rho)`` where
    ``rho = (1 - beta)(1 + beta^t) / ((1 + beta)(1 - beta^t))`` (at most
    0.9999), the step is scaled per element by
    ``mt^2 / (mt^2 + rho * s)`` clipped into [0, 1] (0 where undefined)::

        param -= eta * (lr * factor * mt + weight_decay_rate * param)

    See :class:`MSVAG` for the arguments.
    """

    def __init__(self, parent_hyperparam=None, lr=None, beta=None, eta=None,
                 weight_decay_rate=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        if lr is not None:
            self.hyperparam.lr = lr
        if beta is not None:
            self.hyperparam.beta = beta
        if eta is not None:
            self.hyperparam.eta = eta
        if weight_decay_rate is not None:
            self.hyperparam.weight_decay_rate = weight_decay_rate

    def init_state(self, param):
        xp = param.device.xp
        self.state['m'] = xp.zeros_like(param.array)
        self.state['v'] = xp.zeros_like(param.array)

    def update_core(self, param):
        hp = self.hyperparam
        # beta ** t from the step count (not a running product), so that a
        # resumed rule continues exactly.
        beta_power = hp.beta ** self.t
        rho = ((1.0 - hp.beta) ** 2 * (1.0 - beta_power ** 2) /
               ((1.0 - beta_power) ** 2 * (1.0 - hp.beta ** 2)))
        kernels.lookup('msvag_update', param.array)(
            param.array, param.grad, self.state['m'], self.state['v'], hp.lr,
            hp.beta, 1.0 - beta_power, min(rho, 0.9999), hp.eta,
            hp.weight_decay_rate)


class MSVAG(optimizer.GradientMethod):
    """M-SVAG (Balles and Hennig, *Dissecting Adam: The Sign, Magnitude and
    Variance of Stochastic Gradients*), with decoupled weight decay
    (``eta``, ``weight_decay_rate``) as in AdamW.

    Args:
        lr (float): the learning rate.
        beta (float): the decay rate of the first and second moments.
        eta (float): a schedule multiplier (for warm restarts).
        weight_decay_rate (float): the decoupled weight decay rate.
    """

    lr = optimizer.HyperparameterProxy('lr')
    beta = optimizer.HyperparameterProxy('beta')
    eta = optimizer.HyperparameterProxy('eta')
    weight_decay_rate = optimizer.HyperparameterProxy('weight_decay_rate')

    def __init__(self, lr=_default_hyperparam.lr,
                 beta=_default_hyperparam.beta, eta=_default_hyperparam.eta,
                 weight_decay_rate=_default_hyperparam.weight_decay_rate):
        super().__init__()
        self.hyperparam.lr = lr
        self.hyperparam.beta = beta
        self.hyperparam.eta = eta
        self.hyperparam.weight_decay_rate = weight_decay_rate

    def create_update_rule(self):
        return MSVAGRule(self.hyperparam)
