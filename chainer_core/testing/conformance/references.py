"""NumPy references of the update rules, written from their formulas:
``ref(w, g, state, t, **hyperparameters)`` returns the updated parameter
(float64) after step ``t`` (1 for the first), keeping its moments in the
dict ``state``. Shared by the conformance kit and the core's tests of the
optimizers."""
import math

import numpy


def ref_sgd(w, g, s, t, lr=0.01):
    return w - lr * g


def ref_momentum_sgd(w, g, s, t, lr=0.01, momentum=0.9):
    s['v'] = momentum * s.get('v', 0) - lr * g
    return w + s['v']


def ref_corrected_momentum_sgd(w, g, s, t, lr=0.01, momentum=0.9):
    s['v'] = momentum * s.get('v', 0) - g
    return w + lr * s['v']


def ref_nesterov_ag(w, g, s, t, lr=0.01, momentum=0.9):
    s['v'] = momentum * s.get('v', 0) - lr * g
    return w + momentum ** 2 * s['v'] - (1 + momentum) * lr * g


def ref_ada_grad(w, g, s, t, lr=0.001, eps=1e-8):
    s['h'] = s.get('h', 0) + g * g
    return w - lr * g / (numpy.sqrt(s['h']) + eps)


def ref_ada_delta(w, g, s, t, rho=0.95, eps=1e-6):
    s['msg'] = rho * s.get('msg', 0) + (1 - rho) * g * g
    dx = numpy.sqrt((s.get('msdx', 0) + eps) / (s['msg'] + eps)) * g
    s['msdx'] = rho * s.get('msdx', 0) + (1 - rho) * dx * dx
    return w - dx


def ref_rmsprop(w, g, s, t, lr=0.01, alpha=0.99, eps=1e-8,
                eps_inside_sqrt=False):
    s['ms'] = alpha * s.get('ms', 0) + (1 - alpha) * g * g
    if eps_inside_sqrt:
        return w - lr * g / numpy.sqrt(s['ms'] + eps)
    return w - lr * g / (numpy.sqrt(s['ms']) + eps)


def ref_rmsprop_graves(w, g, s, t, lr=1e-4, alpha=0.95, momentum=0.9,
                       eps=1e-4):
    s['n'] = alpha * s.get('n', 0) + (1 - alpha) * g * g
    s['g'] = alpha * s.get('g', 0) + (1 - alpha) * g
    s['d'] = momentum * s.get('d', 0) - lr * g / numpy.sqrt(
        s['n'] - s['g'] ** 2 + eps)
    return w + s['d']


def ref_smorms3(w, g, s, t, lr=0.001, eps=1e-16):
    mem = s.get('mem', numpy.ones_like(w))
    r = 1 / (mem + 1)
    s['g'] = (1 - r) * s.get('g', 0) + r * g
    s['g2'] = (1 - r) * s.get('g2', 0) + r * g * g
    x = s['g'] ** 2 / (s['g2'] + eps)
    s['mem'] = 1 + mem * (1 - x)
    return w - g * numpy.minimum(x, lr) / (numpy.sqrt(s['g2']) + eps)


def ref_msvag(w, g, s, t, lr=0.1, beta=0.9, eta=1.0, weight_decay_rate=0):
    s['m'] = beta * s.get('m', 0) + (1 - beta) * g
    s['v'] = beta * s.get('v', 0) + (1 - beta) * g * g
    mt = s['m'] / (1 - beta ** t)
    vt = s['v'] / (1 - beta ** t)
    rho = min((1 - beta) * (1 + beta ** t) / ((1 + beta) * (1 - beta ** t)),
              0.9999)
    var = (vt - mt ** 2) / (1 - rho)
    # Where both moments are 0 (a zero gradient so far) the factor is 0/0:
    # M-SVAG takes no step there.
    with numpy.errstate(invalid='ignore'):
        factor = numpy.clip(mt ** 2 / (mt ** 2 + rho * var), 0, 1)
    factor = numpy.nan_to_num(factor, nan=0.0)
    return w - eta * (lr * factor * mt + weight_decay_rate * w)


def ref_adam(w, g, s, t, alpha=0.001, beta1=0.9, beta2=0.999, eps=1e-8,
             eta=1.0, weight_decay_rate=0, amsgrad=False, adabound=False,
             final_lr=0.1, gamma=1e-3):
    s['m'] = beta1 * s.get('m', 0) + (1 - beta1) * g
    s['v'] = beta2 * s.get('v', 0) + (1 - beta2) * g * g
    v = s['v']
    if amsgrad:
        s['vhat'] = numpy.maximum(s.get('vhat', 0), v)
        v = s['vhat']
    alpha_t = alpha * math.sqrt(1 - beta2 ** t) / (1 - beta1 ** t)
    step = alpha_t / (numpy.sqrt(v) + eps)
    if adabound:
        lower = final_lr * (1 - 1 / (gamma * t + 1))
        upper = final_lr * (1 + 1 / (gamma * t))
        step = numpy.clip(step, lower, upper)
    return w - eta * (step * s['m'] + weight_decay_rate * w)
