"""Adam and its variants: AdamW, AMSGrad, AdaBound and AMSBound."""
import math
import warnings

import numpy

from chainer_core._runtime import kernels
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


def _learning_rate(hp, t):
    if t == 0:
        raise RuntimeError('the learning rate of Adam is defined once the '
                           'updates have started (t > 0)')
    fix1 = 1.0 - math.pow(hp.beta1, t)
    fix2 = 1.0 - math.pow(hp.beta2, t)
    return hp.alpha * math.sqrt(fix2) / fix1


def _intermediate_dtype(dtype):
    # Squared float16 gradients underflow (1e-4 ** 2 is 0 in float16): the
    # moments of float16 parameters are kept and computed in float32.
    return numpy.float32 if dtype == numpy.float16 else dtype


@kernels.declare('adam_update')
def _adam_update(xp, param, grad, m, v, vhat, alpha_t, beta1, beta2, eps,
                 eta, weight_decay_rate, lower, upper):
    """In place, computed in the dtype of the moments m and v (float32 for
    float16 param and grad): m += (1 - beta1) (g - m);
    v += (1 - beta2) (g^2 - v); s = vhat = max(vhat, v) when vhat is not
    None, else s = v; step = alpha_t / (sqrt(s) + eps), clipped into
    [lower, upper] when lower is not None;
    param -= eta (step m + weight_decay_rate param). Returns None."""
    grad = grad.astype(m.dtype, copy=False)
    m += (1 - beta1) * (grad - m)
    v += (1 - beta2) * (grad * grad - v)
    if vhat is not None:
        xp.maximum(vhat, v, out=vhat)
        v = vhat
    step = alpha_t / (xp.sqrt(v) + eps)
    if lower is not None:
        step = xp.clip(step, lower, upper)
    delta = eta * (step * m + weight_decay_rate * param)
    param -= delta.astype(param.dtype, copy=False)


class AdamRule(optimizer.UpdateRule):
    """The Adam update of one parameter.

    .. math::
        m &\\leftarrow m + (1 - \\beta_1)(g - m) \\\\
        v &\\leftarrow v + (1 - \\beta_2)(g^2 - v) \\\\
        \\theta &\\leftarrow \\theta - \\eta \\left(
            \\frac{\\alpha_t}{\\sqrt{\\hat v} + \\epsilon} m
            + \\lambda \\theta \\right)

    with :math:`\\alpha_t = \\alpha \\sqrt{1-\\beta_2^t}/(1-\\beta_1^t)`,
    :math:`\\hat v` the running maximum of :math:`v` under AMSGrad (else
    :math:`v`), and under AdaBound the step size
    :math:`\\alpha_t / (\\sqrt{\\hat v} + \\epsilon)` clipped into
    :math:`[l_t, u_t]` with :math:`l_t = f (1 - 1/(\\gamma t + 1))`,
    :math:`u_t = f (1 + 1/(\\gamma t))` and
    :math:`f = \\mathrm{final\\_lr} \\cdot \\alpha / \\alpha_0`
    (:math:`\\alpha_0` the ``alpha`` the rule was made with, so that a
    schedule of ``alpha`` moves the bounds alike). The moments of float16
    parameters are float32.

    See :class:`Adam` for the arguments.
    """

    def __init__(self, parent_hyperparam=None, alpha=None, beta1=None,
                 beta2=None, eps=None, eta=None, weight_decay_rate=None,
                 amsgrad=None, adabound=None, final_lr=None, gamma=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        for name, value in (
                ('alpha', alpha), ('beta1', beta1), ('beta2', beta2),
                ('eps', eps), ('eta', eta),
                ('weight_decay_rate', weight_decay_rate),
                ('amsgrad', amsgrad), ('adabound', adabound),
                ('final_lr', final_lr), ('gamma', gamma)):
            if value is not None:
                setattr(self.hyperparam, name, value)
        self.initial_alpha = self.hyperparam.alpha

    def init_state(self, param):
        xp = param.device.xp
        dtype = _intermediate_dtype(param.dtype)
        self.state['m'] = xp.zeros_like(param.array, dtype=dtype)
        self.state['v'] = xp.zeros_like(param.array, dtype=dtype)
        if self.hyperparam.amsgrad:
            self.state['vhat'] = xp.zeros_like(param.array, dtype=dtype)

    def _check_eps(self, dtype):
        eps = self.hyperparam.eps
        if eps != 0 and numpy.dtype(dtype).type(eps) == 0:
            raise ValueError('eps of Adam optimizer is too small for {} ({})'
                             .format(numpy.dtype(dtype).name, eps))

    @property
    def alpha_t(self):
        """The bias-corrected step size of the current step."""
        return _learning_rate(self.hyperparam, self.t)

    @property
    def lr(self):
        warnings.warn('AdamRule.lr is renamed AdamRule.alpha_t',
                      DeprecationWarning)
        return self.alpha_t

    @property
    def bounds(self):
        """AdaBound's ``(lower, upper)`` step size bounds at this step."""
        hp = self.hyperparam
        if self.t == 0:
            raise RuntimeError('the AdaBound bounds are defined once the '
                               'updates have started (t > 0)')
        final_lr = hp.final_lr * hp.alpha / self.initial_alpha
        lower = final_lr * (1.0 - 1.0 / (hp.gamma * self.t + 1))
        upper = final_lr * (1.0 + 1.0 / (hp.gamma * self.t))
        return lower, upper

    def update_core(self, param):
        hp = self.hyperparam
        self._check_eps(_intermediate_dtype(param.dtype))
        vhat = None
        if hp.amsgrad:
            vhat = self.state.get('vhat')
            if vhat is None:
                # amsgrad switched on after the first update: v >= 0, so
                # max(0, v) starts the running maximum at this step's v.
                vhat = self.state['vhat'] = param.device.xp.zeros_like(
                    self.state['v'])
        lower = upper = None
        if hp.adabound:
            lower, upper = self.bounds
        kernels.lookup('adam_update', param.array)(
            param.array, param.grad, self.state['m'], self.state['v'], vhat,
            self.alpha_t, hp.beta1, hp.beta2, hp.eps, hp.eta,
            hp.weight_decay_rate, lower, upper)


class Adam(optimizer.GradientMethod):
    """Adam (Kingma and Ba, arXiv:1412.6980).

    With ``eta`` and ``weight_decay_rate`` it is AdamW (Loshchilov and
    Hutter, *Decoupled Weight Decay Regularization*): the decay is applied
    to the parameter, not added to the gradient. ``amsgrad`` uses the
    running maximum of the second moment (Reddi et al., *On the Convergence
    of Adam and Beyond*), ``adabound`` clips the step size into bounds that
    converge to ``final_lr`` (Luo et al., *Adaptive Gradient Methods with
    Dynamic Bound of Learning Rate*); both together are AMSBound. With the
    defaults it is plain Adam.

    Args:
        alpha (float): the coefficient of the step size.
        beta1 (float): the decay rate of the first moment.
        beta2 (float): the decay rate of the second moment.
        eps (float): a small value for numerical stability.
        eta (float): a schedule multiplier (for warm restarts).
        weight_decay_rate (float): the decoupled weight decay rate.
        amsgrad (bool): use AMSGrad.
        adabound (bool): use AdaBound.
        final_lr (float): AdaBound's final step size.
        gamma (float): AdaBound's convergence speed of the bounds.
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
        hp.alpha = alpha
        hp.beta1 = beta1
        hp.beta2 = beta2
        hp.eps = eps
        hp.eta = eta
        hp.weight_decay_rate = weight_decay_rate
        hp.amsgrad = amsgrad
        hp.adabound = adabound
        hp.final_lr = final_lr
        hp.gamma = gamma

    def create_update_rule(self):
        return AdamRule(self.hyperparam)

    @property
    def alpha_t(self):
        """The bias-corrected step size at the optimizer's step count."""
        return _learning_rate(self.hyperparam, self.t)

    @property
    def lr(self):
        warnings.warn('Adam.lr is renamed Adam.alpha_t', DeprecationWarning)
        return self.alpha_t


class _Variant(Adam):
    """:class:`Adam` with the switches ``_fixed`` set, taking the arguments
    of Adam without them."""

    _fixed = {}

    def __init__(self, alpha=_default_hyperparam.alpha,
                 beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2,
                 eps=_default_hyperparam.eps,
                 eta=_default_hyperparam.eta,
                 weight_decay_rate=_default_hyperparam.weight_decay_rate):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps,
                         eta=eta, weight_decay_rate=weight_decay_rate,
                         **self._fixed)


class _BoundedVariant(Adam):
    """:class:`Adam` with ``adabound`` (and the switches ``_fixed``) set,
    taking AdaBound's arguments in Chainer's order."""

    _fixed = {}

    def __init__(self, alpha=_default_hyperparam.alpha,
                 beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2,
                 final_lr=_default_hyperparam.final_lr,
                 gamma=_default_hyperparam.gamma,
                 eps=_default_hyperparam.eps,
                 eta=_default_hyperparam.eta,
                 weight_decay_rate=_default_hyperparam.weight_decay_rate):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps,
                         eta=eta, weight_decay_rate=weight_decay_rate,
                         adabound=True, final_lr=final_lr, gamma=gamma,
                         **self._fixed)


class AdamW(_Variant):
    """Adam with decoupled weight decay (:class:`Adam` with these
    arguments)."""


class AMSGrad(_Variant):
    """:class:`Adam` with ``amsgrad=True``."""

    _fixed = {'amsgrad': True}


class AdaBound(_BoundedVariant):
    """:class:`Adam` with ``adabound=True``."""


class AMSBound(_BoundedVariant):
    """:class:`Adam` with ``amsgrad=True`` and ``adabound=True``."""

    _fixed = {'amsgrad': True}
