"""Adam and its variants: AdamW (weight_decay_rate), AMSGrad, AdaBound."""
import math

from chainer_core import optimizer

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.alpha = 0.001
_default_hyperparam.beta1 = 0.9
_default_hyperparam.beta2 = 0.999
_default_hyperparam.eps = 1e-8
_default_hyperparam.eta = 1.0
_default_hyperparam.weight_decay_rate = 0
_default_hyperparam.amsgrad = False
_default_hyperparam.adabound = False
_default_hyperparam.final_lr = 0.1
_default_hyperparam.gamma = 1e-3


class AdamRule(optimizer.UpdateRule):
    """The Adam update of one parameter.

    .. math::
        m &\\leftarrow m + (1 - \\beta_1)(g - m) \\\\
        v &\\leftarrow v + (1 - \\beta_2)(g^2 - v) \\\\
        \\theta &\\leftarrow \\theta - \\eta \\left(
            \\alpha_t \\frac{m}{\\sqrt{\\hat v} + \\epsilon}
            + \\lambda \\theta \\right)

    with :math:`\\alpha_t = \\alpha \\sqrt{1-\\beta_2^t}/(1-\\beta_1^t)`,
    :math:`\\hat v = \\max(\\hat v, v)` under AMSGrad (else :math:`v`),
    and the step clipped to AdaBound's bounds under AdaBound.
    """

    def __init__(self, parent_hyperparam=None, **kwargs):
        super().__init__(parent_hyperparam or _default_hyperparam)
        for k, v in kwargs.items():
            if v is not None:
                setattr(self.hyperparam, k, v)
        self.initial_alpha = self.hyperparam.alpha

    def init_state(self, param):
        xp = param.xp
        self.state['m'] = xp.zeros_like(param.array)
        self.state['v'] = xp.zeros_like(param.array)
        if self.hyperparam.amsgrad:
            self.state['vhat'] = xp.zeros_like(param.array)

    @property
    def alpha_t(self):
        hp = self.hyperparam
        if self.t == 0:
            raise RuntimeError('alpha_t is defined after the first update')
        fix1 = 1.0 - hp.beta1 ** self.t
        fix2 = 1.0 - hp.beta2 ** self.t
        return hp.alpha * math.sqrt(fix2) / fix1

    lr = alpha_t

    def update_core(self, param):
        hp = self.hyperparam
        if hp.eps == 0:
            raise ValueError('Adam: eps must be positive, got 0')
        xp = param.xp
        grad = param.grad
        m, v = self.state['m'], self.state['v']
        m += (1 - hp.beta1) * (grad - m)
        v += (1 - hp.beta2) * (grad * grad - v)
        if hp.amsgrad:
            vhat = self.state['vhat']
            xp.maximum(vhat, v, out=vhat)
        else:
            vhat = v
        step = self.alpha_t / (xp.sqrt(vhat) + hp.eps)
        if hp.adabound:
            final_lr = hp.final_lr * hp.alpha / self.initial_alpha
            lower = final_lr * (1.0 - 1.0 / (hp.gamma * self.t + 1))
            upper = final_lr * (1.0 + 1.0 / (hp.gamma * self.t))
            step = xp.clip(step, lower, upper)
        param.array -= (hp.eta * (step * m + hp.weight_decay_rate *
                                  param.array)).astype(param.dtype,
                                                       copy=False)


class Adam(optimizer.GradientMethod):
    """Adam (Kingma and Ba), with decoupled weight decay (AdamW when
    ``weight_decay_rate > 0``), AMSGrad and AdaBound switches.

    Args:
        alpha (float): step size.
        beta1, beta2 (float): decay rates of the moment estimates.
        eps (float): denominator term for stability.
        eta (float): schedule multiplier.
        weight_decay_rate (float): decoupled weight decay.
        amsgrad (bool): use AMSGrad's running maximum of ``v``.
        adabound (bool): clip steps to AdaBound's bounds.
        final_lr (float): AdaBound's final learning rate.
        gamma (float): AdaBound's convergence speed.
    """

    alpha = optimizer.HyperparameterProxy('alpha')
    beta1 = optimizer.HyperparameterProxy('beta1')
    beta2 = optimizer.HyperparameterProxy('beta2')
    eps = optimizer.HyperparameterProxy('eps')
    eta = optimizer.HyperparameterProxy('eta')
    weight_decay_rate = optimizer.HyperparameterProxy('weight_decay_rate')
    amsgrad = optimizer.HyperparameterProxy('amsgrad')
    adabound = optimizer.HyperparameterProxy('adabound')
    final_lr = optimizer.HyperparameterProxy('final_lr')
    gamma = optimizer.HyperparameterProxy('gamma')

    def __init__(self, alpha=_default_hyperparam.alpha,
                 beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2,
                 eps=_default_hyperparam.eps,
                 eta=_default_hyperparam.eta,
                 weight_decay_rate=_default_hyperparam.weight_decay_rate,
                 amsgrad=_default_hyperparam.amsgrad,
                 adabound=_default_hyperparam.adabound,
                 final_lr=_default_hyperparam.final_lr,
                 gamma=_default_hyperparam.gamma):
        super().__init__()
        hp = self.hyperparam
        hp.alpha, hp.beta1, hp.beta2, hp.eps, hp.eta = \
            alpha, beta1, beta2, eps, eta
        hp.weight_decay_rate = weight_decay_rate
        hp.amsgrad, hp.adabound = amsgrad, adabound
        hp.final_lr, hp.gamma = final_lr, gamma

    def create_update_rule(self):
        return AdamRule(self.hyperparam)

    @property
    def alpha_t(self):
        hp = self.hyperparam
        if self.t == 0:
            raise RuntimeError('alpha_t is defined after the first update')
        return hp.alpha * math.sqrt(1.0 - hp.beta2 ** self.t) / \
            (1.0 - hp.beta1 ** self.t)

    lr = alpha_t


class AMSGrad(Adam):
    """Adam with ``amsgrad=True``."""

    def __init__(self, alpha=_default_hyperparam.alpha,
                 beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2,
                 eps=_default_hyperparam.eps, eta=_default_hyperparam.eta,
                 weight_decay_rate=_default_hyperparam.weight_decay_rate):
        super().__init__(alpha, beta1, beta2, eps, eta, weight_decay_rate,
                         amsgrad=True)


class AdaBound(Adam):
    """Adam with ``adabound=True``."""

    def __init__(self, alpha=_default_hyperparam.alpha,
                 beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2,
                 final_lr=_default_hyperparam.final_lr,
                 gamma=_default_hyperparam.gamma,
                 eps=_default_hyperparam.eps, eta=_default_hyperparam.eta,
                 weight_decay_rate=_default_hyperparam.weight_decay_rate):
        super().__init__(alpha, beta1, beta2, eps, eta, weight_decay_rate,
                         adabound=True, final_lr=final_lr, gamma=gamma)


class AMSBound(Adam):
    """Adam with ``amsgrad=True`` and ``adabound=True``."""

    def __init__(self, alpha=_default_hyperparam.alpha,
                 beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2,
                 final_lr=_default_hyperparam.final_lr,
                 gamma=_default_hyperparam.gamma,
                 eps=_default_hyperparam.eps, eta=_default_hyperparam.eta,
                 weight_decay_rate=_default_hyperparam.weight_decay_rate):
        super().__init__(alpha, beta1, beta2, eps, eta, weight_decay_rate,
                         amsgrad=True, adabound=True, final_lr=final_lr,
                         gamma=gamma)
