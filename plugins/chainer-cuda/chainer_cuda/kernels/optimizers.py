"""Every optimizer update rule as one elementwise kernel per parameter.

Each updates its arrays in place as its reference kernel does, in the
dtype of the optimizer state (the compute type ``C`` of its placeholder),
rounding to the parameter's dtype where the reference does. float16
parameters with float16 state are left to the references, whose float16
arithmetic rounds after every operation; with float32 state (Adam's
moments, ``use_fp32_update``'s master copies) they are covered.

Inside :func:`chainer_cuda.graph_step` the launches go through the step's
recorder, which passes the float scalars (learning rates, Adam's
bias-corrected step size) as device values it refreshes before each replay,
so that a captured update follows ``t`` and schedules as the eager one does.
"""
import numpy

from chainer_cuda import _capture
from chainer_cuda.kernels._build import Elementwise, FLOATS

_F16 = numpy.dtype(numpy.float16)


def _covered(param, grad, *state):
    """Whether the arrays are floats the kernels take: state (or, without
    state, the parameter) is float32 or float64."""
    arrays = (param, grad) + tuple(s for s in state if s is not None)
    if any(a.dtype not in FLOATS for a in arrays):
        return False
    main = state[0] if state else param
    return main.dtype != _F16


def _declined(name):
    """NotImplemented (the reference runs), except in a graph step: the
    reference would take its scalars (learning rate, Adam's bias-corrected
    step) from the host once, and every replay would reuse them."""
    if _capture.current() is not None:
        raise _capture.GraphCaptureError(
            'chainer_cuda.graph_step: {} is left to chainer-core\'s '
            'reference update for these dtypes (float16 parameters or '
            'state, or non-float arrays), whose per-step scalars a CUDA '
            'graph would freeze; graph_step takes float32 and float64 '
            'parameters (eager mode takes these)'.format(name))
    return NotImplemented


def _launch(kernel, grad, scalars, outputs):
    """Run ``kernel(grad, *scalars, *outputs)``, or hand it to the graph
    step being run, which passes the float scalars from device memory it
    updates before every replay."""
    recorder = _capture.current()
    if recorder is None:
        kernel(grad, *scalars, *outputs)
    else:
        recorder.launch(kernel, grad, scalars, outputs)


_sgd = Elementwise(
    'sgd_update', 'G grad, float64 lr', 'P param',
    'param = P(C(param) - C(lr) * C(grad));', wide='P')


def sgd_update(param, grad, lr):
    if not _covered(param, grad):
        return _declined('sgd_update')
    _launch(_sgd, grad, (float(lr),), (param,))


_momentum_sgd = Elementwise(
    'momentum_sgd_update', 'G grad, float64 lr, float64 momentum',
    'P param, V v',
    '''v = V(C(v) * C(momentum) - C(lr) * C(grad));
    param = P(C(param) + C(v));''', wide='V')


def momentum_sgd_update(param, grad, v, lr, momentum):
    if not _covered(param, grad, v):
        return _declined('momentum_sgd_update')
    _launch(_momentum_sgd, grad, (float(lr), float(momentum)), (param, v))


_corrected_momentum_sgd = Elementwise(
    'corrected_momentum_sgd_update', 'G grad, float64 lr, float64 momentum',
    'P param, V v',
    '''v = V(C(v) * C(momentum) - C(grad));
    param = P(C(param) + C(lr) * C(v));''', wide='V')


def corrected_momentum_sgd_update(param, grad, v, lr, momentum):
    if not _covered(param, grad, v):
        return _declined('corrected_momentum_sgd_update')
    _launch(_corrected_momentum_sgd, grad, (float(lr), float(momentum)),
            (param, v))


_nesterov_ag = Elementwise(
    'nesterov_ag_update', 'G grad, float64 lr, float64 momentum',
    'P param, V v',
    '''C g = grad;
    v = V(C(v) * C(momentum) - C(lr) * g);
    C p = C(param) + C(momentum * momentum) * C(v);
    param = P(C(P(p)) - C((1 + momentum) * lr) * g);''', wide='V')


def nesterov_ag_update(param, grad, v, lr, momentum):
    if not _covered(param, grad, v):
        return _declined('nesterov_ag_update')
    _launch(_nesterov_ag, grad, (float(lr), float(momentum)), (param, v))


_ada_grad = Elementwise(
    'ada_grad_update', 'G grad, float64 lr, float64 eps', 'P param, H h',
    '''C g = grad;
    h = H(C(h) + g * g);
    param = P(C(param) - C(lr) * g / (sqrt(C(h)) + C(eps)));''', wide='H')


def ada_grad_update(param, grad, h, lr, eps):
    if not _covered(param, grad, h):
        return _declined('ada_grad_update')
    _launch(_ada_grad, grad, (float(lr), float(eps)), (param, h))


_ada_delta = Elementwise(
    'ada_delta_update', 'G grad, float64 rho, float64 eps',
    'P param, M msg, M msdx',
    '''C g = grad;
    msg = M(C(msg) * C(rho) + C(1 - rho) * g * g);
    C dx = sqrt((C(msdx) + C(eps)) / (C(msg) + C(eps))) * g;
    msdx = M(C(msdx) * C(rho) + C(1 - rho) * dx * dx);
    param = P(C(param) - dx);''', wide='M')


def ada_delta_update(param, grad, msg, msdx, rho, eps):
    if not _covered(param, grad, msg, msdx):
        return _declined('ada_delta_update')
    _launch(_ada_delta, grad, (float(rho), float(eps)), (param, msg, msdx))


_ADAM_BODY = '''C g = grad;
    m = M(C(m) + C(1 - beta1) * (g - C(m)));
    v = M(C(v) + C(1 - beta2) * (g * g - C(v)));
    C s = C(v);
    {vhat}
    C step = C(alpha_t) / (sqrt(s) + C(eps));
    if (bounded) step = cc_min(cc_max(step, C(lower)), C(upper));
    C delta = C(eta) * (step * C(m) + C(weight_decay_rate) * C(param));
    param = P(C(param) - C(P(delta)));'''
_ADAM_PARAMS = ('G grad, float64 alpha_t, float64 beta1, float64 beta2, '
                'float64 eps, float64 eta, float64 weight_decay_rate, '
                'bool bounded, float64 lower, float64 upper')
_adam = Elementwise(
    'adam_update', _ADAM_PARAMS, 'P param, M m, M v',
    _ADAM_BODY.format(vhat=''), wide='M')
_amsgrad = Elementwise(
    'amsgrad_update', _ADAM_PARAMS, 'P param, M m, M v, M vhat',
    _ADAM_BODY.format(vhat='vhat = M(cc_max(C(vhat), s)); s = C(vhat);'),
    wide='M')


def adam_update(param, grad, m, v, vhat, alpha_t, beta1, beta2, eps, eta,
                weight_decay_rate, lower, upper):
    moments = {m.dtype, v.dtype} | ({vhat.dtype} if vhat is not None
                                   else set())
    if not _covered(param, grad, m, v, vhat) or len(moments) != 1:
        return _declined('adam_update')
    bounded = lower is not None
    scalars = (float(alpha_t), float(beta1), float(beta2), float(eps),
               float(eta), float(weight_decay_rate), bounded,
               float(lower) if bounded else 0.0,
               float(upper) if bounded else 0.0)
    if vhat is None:
        _launch(_adam, grad, scalars, (param, m, v))
    else:
        _launch(_amsgrad, grad, scalars, (param, m, v, vhat))


_rmsprop = Elementwise(
    'rmsprop_update',
    'G grad, float64 lr, float64 alpha, float64 eps, bool eps_inside_sqrt',
    'P param, M ms',
    '''C g = grad;
    ms = M(C(ms) * C(alpha) + C(1 - alpha) * g * g);
    C denom = eps_inside_sqrt ? sqrt(C(ms) + C(eps)) : sqrt(C(ms)) + C(eps);
    param = P(C(param) - C(lr) * g / denom);''', wide='M')


def rmsprop_update(param, grad, ms, lr, alpha, eps, eps_inside_sqrt):
    if not _covered(param, grad, ms):
        return _declined('rmsprop_update')
    _launch(_rmsprop, grad, (float(lr), float(alpha), float(eps),
                             bool(eps_inside_sqrt)), (param, ms))


_rmsprop_graves = Elementwise(
    'rmsprop_graves_update',
    'G grad, float64 lr, float64 alpha, float64 momentum, float64 eps',
    'P param, M n, M g, M delta',
    '''C gr = grad;
    n = M(C(n) * C(alpha) + C(1 - alpha) * gr * gr);
    g = M(C(g) * C(alpha) + C(1 - alpha) * gr);
    delta = M(C(delta) * C(momentum)
              - C(lr) * gr / sqrt(C(n) - C(g) * C(g) + C(eps)));
    param = P(C(param) + C(delta));''', wide='M')


def rmsprop_graves_update(param, grad, n, g, delta, lr, alpha, momentum, eps):
    if not _covered(param, grad, n, g, delta):
        return _declined('rmsprop_graves_update')
    _launch(_rmsprop_graves, grad,
            (float(lr), float(alpha), float(momentum), float(eps)),
            (param, n, g, delta))


_smorms3 = Elementwise(
    'smorms3_update', 'G grad, float64 lr, float64 eps',
    'P param, M mem, M g, M g2',
    '''C gr = grad;
    C r = C(1) / (C(mem) + C(1));
    g = M(C(g) * (C(1) - r) + r * gr);
    g2 = M(C(g2) * (C(1) - r) + r * gr * gr);
    C x = C(g) * C(g) / (C(g2) + C(eps));
    param = P(C(param) - gr * cc_min(x, C(lr)) / (sqrt(C(g2)) + C(eps)));
    mem = M(C(mem) * (C(1) - x) + C(1));''', wide='M')


def smorms3_update(param, grad, mem, g, g2, lr, eps):
    if not _covered(param, grad, mem, g, g2):
        return _declined('smorms3_update')
    _launch(_smorms3, grad, (float(lr), float(eps)), (param, mem, g, g2))


_msvag = Elementwise(
    'msvag_update',
    'G grad, float64 lr, float64 beta, float64 bias, float64 rho, '
    'float64 eta, float64 weight_decay_rate',
    'P param, M m, M v',
    '''C gr = grad;
    m = M(C(m) + C(1 - beta) * (gr - C(m)));
    v = M(C(v) + C(1 - beta) * (gr * gr - C(v)));
    C mt = C(m) / C(bias);
    C vt = C(v) / C(bias);
    C mt2 = mt * mt;
    C s = (vt - mt2) / C(1 - rho);
    C factor = cc_min(cc_max(mt2 / (mt2 + C(rho) * s), C(0)), C(1));
    if (isnan(factor)) factor = 0;
    factor = C(P(factor));
    param = P(C(param) - C(eta) * (C(lr) * mt * factor
                                   + C(weight_decay_rate) * C(param)));''',
    wide='M')


def msvag_update(param, grad, m, v, lr, beta, bias, rho, eta,
                weight_decay_rate):
    if not _covered(param, grad, m, v):
        return _declined('msvag_update')
    _launch(_msvag, grad, (float(lr), float(beta), float(bias), float(rho),
                           float(eta), float(weight_decay_rate)),
            (param, m, v))


KERNELS = {f.__name__: f for f in (
    sgd_update,
    momentum_sgd_update,
    corrected_momentum_sgd_update,
    nesterov_ag_update,
    ada_grad_update,
    ada_delta_update,
    adam_update,
    rmsprop_update,
    rmsprop_graves_update,
    smorms3_update,
    msvag_update,
)}
