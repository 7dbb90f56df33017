"""The update kernels of the optimizers: their reference
implementations (in place, against the formulas) and the rules reaching
them through the kernel registry, where a backend may replace them."""
import contextlib
import inspect
import math

import numpy
import pytest

import chainer_core as chainer
from chainer_core._runtime import kernels
from chainer_core import optimizers

FLOATS = [numpy.float16, numpy.float32, numpy.float64]
TOL = {numpy.float16: 1e-3, numpy.float32: 1e-6, numpy.float64: 1e-14}


def _ref(name):
    return kernels.get_spec(name).reference


def _arrays(dtype, n=3, shape=(4, 5), seed=0):
    rng = numpy.random.RandomState(seed)
    return [rng.uniform(-1, 1, shape).astype(dtype) for _ in range(n)]


class OneParam(chainer.Link):
    def __init__(self, value):
        super().__init__()
        with self.init_scope():
            self.w = chainer.Parameter(value)


@contextlib.contextmanager
def _spy(name):
    """Route kernel ``name`` for @numpy arrays through a recorder that runs
    the reference."""
    spec = kernels.get_spec(name)
    saved = dict(spec.implementations)
    calls = []

    def spy(*args):
        calls.append(args)
        return spec.reference(numpy, *args)

    kernels.register_kernel(name, 'numpy', spy, distribution='test')
    try:
        yield calls
    finally:
        spec.implementations.clear()
        spec.implementations.update(saved)
        kernels._cache.clear()


@pytest.mark.parametrize('name, params', [
    ('sgd_update', 'param, grad, lr'),
    ('momentum_sgd_update', 'param, grad, v, lr, momentum'),
    ('adam_update', 'param, grad, m, v, vhat, alpha_t, beta1, beta2, eps, '
                    'eta, weight_decay_rate, lower, upper'),
    ('ada_grad_update', 'param, grad, h, lr, eps'),
    ('ada_delta_update', 'param, grad, msg, msdx, rho, eps'),
    ('corrected_momentum_sgd_update', 'param, grad, v, lr, momentum'),
    ('nesterov_ag_update', 'param, grad, v, lr, momentum'),
    ('rmsprop_update', 'param, grad, ms, lr, alpha, eps, eps_inside_sqrt'),
    ('rmsprop_graves_update', 'param, grad, n, g, delta, lr, alpha, '
                              'momentum, eps'),
    ('smorms3_update', 'param, grad, mem, g, g2, lr, eps'),
    ('msvag_update', 'param, grad, m, v, lr, beta, bias, rho, eta, '
                     'weight_decay_rate'),
])
def test_declared_with_the_shared_signature(name, params):
    # Backends (chainer-native, chainer-mkldnn) register these names with
    # exactly this signature.
    assert kernels.get_spec(name).signature == '({})'.format(params)
    sig = inspect.signature(_ref(name))
    assert list(sig.parameters)[0] == 'xp'


@pytest.mark.parametrize('dtype', FLOATS)
def test_sgd_update_in_place(dtype):
    param, grad = _arrays(dtype, 2)
    expected = param.astype(numpy.float64) - 0.3 * grad.astype(numpy.float64)
    target = param
    assert _ref('sgd_update')(numpy, param, grad, 0.3) is None
    assert param is target and param.dtype == dtype
    numpy.testing.assert_allclose(param, expected, rtol=TOL[dtype],
                                  atol=TOL[dtype])


@pytest.mark.parametrize('dtype', FLOATS)
def test_momentum_sgd_update_in_place(dtype):
    param, grad, v = _arrays(dtype)
    p64, g64, v64 = (a.astype(numpy.float64) for a in (param, grad, v))
    v_expected = 0.9 * v64 - 0.1 * g64
    targets = param, v
    assert _ref('momentum_sgd_update')(numpy, param, grad, v, 0.1,
                                       0.9) is None
    assert (param, v) == targets
    numpy.testing.assert_allclose(v, v_expected, rtol=TOL[dtype],
                                  atol=TOL[dtype])
    numpy.testing.assert_allclose(param, p64 + v_expected,
                                  rtol=TOL[dtype], atol=TOL[dtype])


def _adam_expected(param, grad, m, v, vhat, alpha_t, beta1, beta2, eps, eta,
                   wd, lower, upper):
    p, g, m, v = (a.astype(numpy.float64) for a in (param, grad, m, v))
    m = beta1 * m + (1 - beta1) * g
    v = beta2 * v + (1 - beta2) * g * g
    s = v
    if vhat is not None:
        vhat = numpy.maximum(vhat.astype(numpy.float64), v)
        s = vhat
    step = alpha_t / (numpy.sqrt(s) + eps)
    if lower is not None:
        step = numpy.clip(step, lower, upper)
    return p - eta * (step * m + wd * p), m, v, vhat


ADAM_CASES = {
    'adam': dict(vhat=False, wd=0.0, bounds=None),
    'adamw': dict(vhat=False, wd=0.1, bounds=None),
    'amsgrad': dict(vhat=True, wd=0.0, bounds=None),
    'adabound': dict(vhat=False, wd=0.0, bounds=(0.02, 0.05)),
    'amsbound': dict(vhat=True, wd=0.01, bounds=(0.02, 0.05)),
}


@pytest.mark.parametrize('case', sorted(ADAM_CASES))
@pytest.mark.parametrize('dtype', FLOATS)
def test_adam_update_in_place(case, dtype):
    c = ADAM_CASES[case]
    state = numpy.float32 if dtype == numpy.float16 else dtype
    param, grad = _arrays(dtype, 2)
    m, v, vhat = _arrays(state, 3, seed=1)
    v, vhat = v * v, vhat * vhat   # second moments are not negative
    vhat = vhat if c['vhat'] else None
    lower, upper = c['bounds'] or (None, None)
    args = (0.03, 0.8, 0.7, 1e-3, 0.5, c['wd'], lower, upper)
    expected = _adam_expected(param, grad, m, v, vhat, *args)
    targets = (param, m, v, vhat)
    assert _ref('adam_update')(numpy, param, grad, m, v, vhat, *args) is None
    assert (param, m, v, vhat) == targets
    assert param.dtype == dtype and m.dtype == v.dtype == state
    tol = TOL[state]
    for actual, e in zip((param, m, v, vhat), expected):
        if e is not None:
            numpy.testing.assert_allclose(actual, e, rtol=max(tol, TOL[dtype]),
                                          atol=max(tol, TOL[dtype]))


def test_adam_update_clips_the_step_both_ways():
    param = numpy.zeros(2)
    grad = numpy.array([1e-6, 10.0])
    m, v = numpy.zeros(2), numpy.zeros(2)
    _ref('adam_update')(numpy, param, grad, m, v, None, 1.0, 0.0, 0.0, 0.0,
                        1.0, 0.0, 0.5, 0.7)
    # Unclipped, the steps would be 1e6 and 0.1: with m = g they become
    # 0.7 * 1e-6 and 0.5 * 10.
    numpy.testing.assert_allclose(param, [-0.7e-6, -5.0])


def test_adam_update_keeps_the_running_maximum():
    param, grad = numpy.zeros(2), numpy.array([0.0, 2.0])
    m, v = numpy.zeros(2), numpy.array([9.0, 0.0])
    vhat = numpy.array([1.0, 1.0])
    _ref('adam_update')(numpy, param, grad, m, v, vhat, 1.0, 0.0, 0.5, 0.0,
                        1.0, 0.0, None, None)
    numpy.testing.assert_allclose(v, [4.5, 2.0])
    numpy.testing.assert_allclose(vhat, [4.5, 2.0])
    vhat[...] = [5.0, 1.0]
    _ref('adam_update')(numpy, param, grad, m, v, vhat, 1.0, 0.0, 0.5, 0.0,
                        1.0, 0.0, None, None)
    numpy.testing.assert_allclose(v, [2.25, 3.0])
    numpy.testing.assert_allclose(vhat, [5.0, 3.0])


# -- the rules call the kernels through the registry ----------------------


def _setup(opt, dtype=numpy.float32):
    link = OneParam(numpy.linspace(-1, 1, 6, dtype=dtype).reshape(2, 3))
    opt.setup(link)
    link.w.grad = numpy.full((2, 3), 0.5, dtype)
    return link.w


def test_sgd_rule_calls_the_kernel():
    w = _setup(optimizers.SGD(lr=0.25))
    array, grad = w.array, w.grad
    with _spy('sgd_update') as calls:
        w.update_rule.update(w)
    (args,) = calls
    assert args[0] is array and args[1] is grad and args[2] == 0.25
    assert w.array is array


def test_momentum_sgd_rule_calls_the_kernel():
    w = _setup(optimizers.MomentumSGD(lr=0.25, momentum=0.5))
    array = w.array
    with _spy('momentum_sgd_update') as calls:
        w.update_rule.update(w)
        w.update_rule.update(w)
    assert len(calls) == 2
    for args in calls:
        assert args[0] is array and args[1] is w.grad
        assert args[2] is w.update_rule.state['v']
        assert args[3:] == (0.25, 0.5)


@pytest.mark.parametrize('kwargs', [{}, {'amsgrad': True},
                                    {'adabound': True},
                                    {'amsgrad': True, 'adabound': True,
                                     'weight_decay_rate': 0.1, 'eta': 0.5}])
def test_adam_rule_calls_the_kernel(kwargs):
    opt = optimizers.Adam(alpha=0.1, beta1=0.5, beta2=0.75, eps=1e-4,
                          **kwargs)
    w = _setup(opt)
    array = w.array
    with _spy('adam_update') as calls:
        w.update_rule.update(w)
    (args,) = calls
    rule = w.update_rule
    state = rule.state
    assert args[0] is array and args[1] is w.grad
    assert args[2] is state['m'] and args[3] is state['v']
    if kwargs.get('amsgrad'):
        assert args[4] is state['vhat']
    else:
        assert args[4] is None and 'vhat' not in state
    expected_alpha_t = 0.1 * math.sqrt(1 - 0.75) / (1 - 0.5)
    assert args[5] == pytest.approx(expected_alpha_t)
    assert args[6:11] == (0.5, 0.75, 1e-4, kwargs.get('eta', 1.0),
                          kwargs.get('weight_decay_rate', 0))
    if kwargs.get('adabound'):
        assert args[11:] == rule.bounds
    else:
        assert args[11:] == (None, None)


def test_adam_rule_float16_passes_float32_moments():
    w = _setup(optimizers.Adam(alpha=0.01), numpy.float16)
    with _spy('adam_update') as calls:
        w.update_rule.update(w)
    (args,) = calls
    assert args[0].dtype == args[1].dtype == numpy.float16
    assert args[2].dtype == args[3].dtype == numpy.float32
    assert w.array.dtype == numpy.float16


def test_amsgrad_switched_on_after_the_first_update():
    # The running maximum starts at the v of the step that switches it on.
    opt = optimizers.Adam(alpha=0.1, beta2=0.5)
    w = _setup(opt, numpy.float64)
    for i, g in enumerate([0.5, 2.0, 0.1]):
        if i == 1:
            opt.amsgrad = True
        w.grad = numpy.full((2, 3), g)
        w.update_rule.update(w)
    state = w.update_rule.state
    v1 = 0.5 * 0.5 ** 2
    v2 = 0.5 * v1 + 0.5 * 2.0 ** 2
    numpy.testing.assert_allclose(state['v'], 0.5 * v2 + 0.5 * 0.1 ** 2)
    numpy.testing.assert_allclose(state['vhat'], v2)


@pytest.mark.parametrize('cls, kernel', [
    (optimizers.AdaGrad, 'ada_grad_update'),
    (optimizers.AdaDelta, 'ada_delta_update'),
    (optimizers.CorrectedMomentumSGD, 'corrected_momentum_sgd_update'),
    (optimizers.NesterovAG, 'nesterov_ag_update'),
    (optimizers.RMSprop, 'rmsprop_update'),
    (optimizers.RMSpropGraves, 'rmsprop_graves_update'),
    (optimizers.SMORMS3, 'smorms3_update'),
    (optimizers.MSVAG, 'msvag_update'),
], ids=lambda v: v if isinstance(v, str) else v.__name__)
def test_rule_updates_in_place_through_its_kernel(cls, kernel):
    # In place on the parameter's own array and state: a backend's
    # parameter keeps its array (and its place in the backend's graph).
    w = _setup(cls())
    array, grad = w.array, w.grad
    before = array.copy()
    with _spy(kernel) as calls:
        w.update_rule.update(w)
    (args,) = calls
    assert args[0] is array and args[1] is grad
    for value in w.update_rule.state.values():
        assert any(a is value for a in args[2:])
    assert w.array is array
    assert not numpy.array_equal(array, before)


# Per update with state: the hyperparameters after (param, grad, state...),
# and how many state arrays it takes.
STATEFUL = {
    'momentum_sgd_update': (1, (0.1, 0.9)),
    'nesterov_ag_update': (1, (0.1, 0.9)),
    'ada_grad_update': (1, (0.1, 1e-8)),
    'ada_delta_update': (2, (0.95, 1e-6)),
    'rmsprop_update': (1, (0.01, 0.5, 1e-8, False)),
    'rmsprop_graves_update': (3, (1e-4, 0.95, 0.9, 1e-4)),
    'msvag_update': (2, (0.1, 0.9, 0.5, 0.1, 1.0, 0.0)),
}


@pytest.mark.parametrize('name', sorted(STATEFUL))
def test_float32_state_of_float16_params_is_computed_in_float32(name):
    # The state a float16 parameter keeps in float32 (as a backend's fused
    # kernel computes it) must not go through float16 products of grad.
    n_state, hyper = STATEFUL[name]
    param, grad = _arrays(numpy.float16, 2)
    state = [a * a + 1 for a in _arrays(numpy.float32, n_state, seed=1)]
    if name == 'rmsprop_graves_update':
        state[0] *= 4    # n above g^2: the rule takes sqrt(n - g^2)
    wide = [a.astype(numpy.float64) for a in [param, grad] + state]
    assert _ref(name)(numpy, param, grad, *state, *hyper) is None
    _ref(name)(numpy, *wide, *hyper)
    for got, expected in zip(state, wide[2:]):
        assert got.dtype == numpy.float32
        numpy.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(param, wide[0], rtol=1e-3, atol=1e-3)
