"""Every optimizer, and every optimizer hook, on every device: a few steps on
a small model (a Linear link, a zero-size parameter and one that gets no
gradient) compared with NumPy references of the update formulas and with
the same run on @numpy; float32 updates of float16 parameters, loss
scaling, and resuming from an npz snapshot mid-run."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import optimizer_hooks, optimizers
from chainer_core.serializers import load_npz, save_npz
from .references import (
    ref_ada_delta, ref_ada_grad, ref_adam, ref_corrected_momentum_sgd,
    ref_momentum_sgd, ref_msvag, ref_nesterov_ag, ref_rmsprop,
    ref_rmsprop_graves, ref_sgd, ref_smorms3)

DTYPES = [numpy.float16, numpy.float32, numpy.float64]
STEPS = 3

# Hyperparameters far from the defaults, with steps large enough that a
# wrong update stands out against float16 rounding.
_ADAM = dict(alpha=0.1, beta1=0.8, beta2=0.9, eps=1e-3)
_BOUND = dict(_ADAM, final_lr=2.0, gamma=0.1)
OPTIMIZERS = {
    # name: (constructor arguments, reference, its extra arguments)
    'SGD': (dict(lr=0.5), ref_sgd, {}),
    'MomentumSGD': (dict(lr=0.2, momentum=0.8), ref_momentum_sgd, {}),
    'NesterovAG': (dict(lr=0.2, momentum=0.8), ref_nesterov_ag, {}),
    'CorrectedMomentumSGD': (dict(lr=0.2, momentum=0.8),
                             ref_corrected_momentum_sgd, {}),
    'RMSprop': (dict(lr=0.05, alpha=0.9, eps=1e-3), ref_rmsprop, {}),
    'RMSpropGraves': (dict(lr=0.05, alpha=0.9, momentum=0.8, eps=1e-2),
                      ref_rmsprop_graves, {}),
    'AdaGrad': (dict(lr=0.2, eps=1e-3), ref_ada_grad, {}),
    'AdaDelta': (dict(rho=0.8, eps=1e-2), ref_ada_delta, {}),
    'Adam': (_ADAM, ref_adam, {}),
    'AdamW': (dict(_ADAM, eta=0.5, weight_decay_rate=0.1), ref_adam, {}),
    'AMSGrad': (_ADAM, ref_adam, dict(amsgrad=True)),
    'AdaBound': (_BOUND, ref_adam, dict(adabound=True)),
    'AMSBound': (_BOUND, ref_adam, dict(amsgrad=True, adabound=True)),
    'SMORMS3': (dict(lr=0.05, eps=1e-3), ref_smorms3, {}),
    'MSVAG': (dict(lr=0.3, beta=0.8, eta=0.9, weight_decay_rate=0.05),
              ref_msvag, {}),
}
NAMES = sorted(OPTIMIZERS)
# M-SVAG's variance estimate (vt - mt^2) / (1 - rho) divides a difference
# of nearly equal float16 numbers by 1 - rho = 1e-4 in the first steps:
# float16 rounding, not the formula, decides the step, so in float16 it is
# compared with @numpy only (and with the reference under float32 updates).
ILL_CONDITIONED_IN_FLOAT16 = {'MSVAG'}

# x and c hold multiples of 1/2 and the batch is 4: the gradients c^T x
# and sum(c) are exact in float16, so every device sees the same ones.
_rng = numpy.random.RandomState(3)
X = [_rng.randint(-2, 3, (4, 3)) / 2 for _ in range(STEPS + 1)]
C = [_rng.randint(-2, 3, (4, 2)) / 2 for _ in range(STEPS + 1)]
W0 = _rng.uniform(-1, 1, (2, 3))
B0 = _rng.uniform(-1, 1, 2)
U0 = _rng.uniform(-1, 1, (2, 2))


class Model(chainer.Chain):
    """A Linear link, a zero-size parameter and a parameter outside the
    loss (its gradient stays None until the optimizer zero-fills it)."""

    def __init__(self, dtype):
        super().__init__()
        # As in Chainer, a Linear link takes its dtype from the config,
        # not from the initial arrays.
        with self.init_scope(), chainer.using_config('dtype', dtype):
            self.lin = L.Linear(3, 2, initialW=W0, initial_bias=B0)
            self.empty = chainer.Parameter(numpy.zeros((0, 3), dtype))
            self.unused = chainer.Parameter(U0.astype(dtype))

    def loss(self, x, c):
        return F.sum(self.lin(x) * c) + F.sum(self.empty)


HOST = chainer.get_device('@numpy')


def _host(device, array):
    return HOST.send(array)


def _make(device, dtype, name, fp32=False):
    model = Model(dtype)
    model.to_device(device)
    kwargs = OPTIMIZERS[name][0]
    opt = getattr(optimizers, name)(**kwargs).setup(model)
    if fp32:
        opt.use_fp32_update()
    return model, opt


def _step(device, model, opt, dtype, i):
    x = device.send(X[i].astype(dtype))
    c = device.send(C[i].astype(dtype))
    opt.update(model.loss, x, c)


def _params(device, model):
    return {name: _host(device, p.array)
            for name, p in sorted(model.namedparams())}


def _run(device, dtype, name, steps=STEPS, fp32=False, loss_scale=None):
    model, opt = _make(device, dtype, name, fp32)
    if loss_scale is not None:
        opt.loss_scaling(scale=loss_scale)
    for i in range(steps):
        _step(device, model, opt, dtype, i)
    return model, opt


def _reference(name, dtype, storage=None, steps=STEPS):
    """The parameters after ``steps`` updates by the reference, with the
    parameter and its state rounded to the dtypes the rule stores them in
    after every step."""
    kwargs, ref, extra = OPTIMIZERS[name]
    kwargs = dict(kwargs, **extra)
    storage = storage or dtype
    state_dtype = storage
    if ref is ref_adam and storage == numpy.float16:
        state_dtype = numpy.float32   # Adam's moments of float16 params
    start = {'/lin/W': W0, '/lin/b': B0, '/unused': U0,
             '/empty': numpy.zeros((0, 3))}
    result = {}
    for pname, w0 in start.items():
        w = w0.astype(dtype).astype(storage).astype(numpy.float64)
        state = {}
        for i in range(steps):
            x, c = X[i], C[i]
            g = {'/lin/W': c.T @ x, '/lin/b': c.sum(0)}.get(
                pname, numpy.zeros_like(w))
            w = ref(w, g, state, i + 1, **kwargs)
            w = w.astype(storage).astype(numpy.float64)
            for k, v in state.items():
                state[k] = numpy.asarray(v).astype(state_dtype).astype(
                    numpy.float64)
        result[pname] = w.astype(dtype)
    return result


TOL = {numpy.float16: 1e-2, numpy.float32: 2e-5, numpy.float64: 1e-10}
# Same formula, same dtype, another backend: rounding may differ by an ulp
# or so per operation.
DEVICE_TOL = {numpy.float16: 4e-3, numpy.float32: 1e-5, numpy.float64: 1e-12}


def _assert_params(actual, expected, tol, what):
    assert sorted(actual) == sorted(expected)
    for name in expected:
        a, e = actual[name], expected[name]
        assert a.dtype == e.dtype and a.shape == e.shape, (what, name)
        numpy.testing.assert_allclose(
            a.astype(numpy.float64), e.astype(numpy.float64), rtol=tol,
            atol=tol, err_msg='{}: {}'.format(what, name))


def test_every_optimizer_of_chainer_v7_is_covered():
    exported = {n for n in dir(optimizers)
                if isinstance(getattr(optimizers, n), type) and
                issubclass(getattr(optimizers, n), chainer.GradientMethod)}
    assert exported == set(OPTIMIZERS)


@pytest.mark.parametrize('dtype', DTYPES, ids=lambda d: d.__name__)
@pytest.mark.parametrize('name', NAMES)
def test_optimizer_matches_reference_and_numpy(device, name, dtype):
    model, opt = _run(device, dtype, name)
    actual = _params(device, model)
    expected = _reference(name, dtype)
    moved = numpy.abs(expected['/lin/W'].astype(numpy.float64) -
                      W0.astype(dtype)).max()
    assert moved > 5 * TOL[dtype], 'the steps are too small to test'
    if not (dtype == numpy.float16 and name in ILL_CONDITIONED_IN_FLOAT16):
        _assert_params(actual, expected, TOL[dtype], 'reference')
    assert opt.t == STEPS
    assert model.lin.W.update_rule.t == STEPS
    assert model.empty.array.shape == (0, 3)
    for p in model.params():
        assert device.is_array_supported(p.array)
        assert device.is_array_supported(p.grad)
        for value in p.update_rule.state.values():
            assert device.is_array_supported(value)
    if device.name != '@numpy':
        on_numpy, _ = _run(HOST, dtype, name)
        _assert_params(actual, _params(HOST,
                                       on_numpy),
                       DEVICE_TOL[dtype], '@numpy')


@pytest.mark.parametrize('name', NAMES)
def test_float32_update_of_float16_parameters(device, name):
    model, _ = _run(device, numpy.float16, name, fp32=True)
    expected = _reference(name, numpy.float16, storage=numpy.float32)
    _assert_params(_params(device, model), expected, 2e-3, 'reference')
    for p in model.params():
        assert p.array.dtype == numpy.float16
        for value in p.update_rule.state.values():
            assert value.dtype == numpy.float32
    if device.name != '@numpy':
        numpy_device = HOST
        on_numpy, _ = _run(numpy_device, numpy.float16, name, fp32=True)
        _assert_params(_params(device, model),
                       _params(numpy_device, on_numpy), 1e-3, '@numpy')


@pytest.mark.parametrize('dtype, fp32', [
    (numpy.float16, False), (numpy.float16, True), (numpy.float32, False)],
    ids=['float16', 'float16-fp32-update', 'float32'])
@pytest.mark.parametrize('name', NAMES)
def test_loss_scaling_gives_the_same_update(device, name, dtype, fp32):
    # Scaling by a power of two and dividing back is exact.
    plain, _ = _run(device, dtype, name, fp32=fp32)
    scaled, _ = _run(device, dtype, name, fp32=fp32, loss_scale=128.0)
    expected = _params(device, plain)
    for pname, value in _params(device, scaled).items():
        numpy.testing.assert_array_equal(value, expected[pname],
                                         err_msg=pname)


@pytest.mark.parametrize('dtype, fp32', [
    (numpy.float32, False), (numpy.float16, True)],
    ids=['float32', 'float16-fp32-update'])
@pytest.mark.parametrize('name', NAMES)
def test_resume_from_npz_mid_run(device, name, dtype, fp32, tmp_path):
    straight, _ = _run(device, dtype, name, steps=STEPS + 1, fp32=fp32)
    model, opt = _run(device, dtype, name, steps=2, fp32=fp32)
    save_npz(str(tmp_path / 'model.npz'), model)
    save_npz(str(tmp_path / 'opt.npz'), opt)
    model, opt = _make(device, dtype, name, fp32)
    load_npz(str(tmp_path / 'model.npz'), model)
    load_npz(str(tmp_path / 'opt.npz'), opt)
    assert opt.t == 2 and model.lin.W.update_rule.t == 2
    for i in range(2, STEPS + 1):
        _step(device, model, opt, dtype, i)
    expected = _params(device, straight)
    for pname, value in _params(device, model).items():
        numpy.testing.assert_array_equal(value, expected[pname],
                                         err_msg=pname)


def test_update_skips_a_parameter_without_gradient(device):
    # Called directly (not through optimizer.update, which zero-fills
    # missing gradients), a rule leaves such a parameter alone but counts
    # the step, as Chainer's does.
    model, _ = _make(device, numpy.float32, 'MomentumSGD')
    before = _host(device, model.unused.array).copy()
    model.unused.update()
    numpy.testing.assert_array_equal(_host(device, model.unused.array),
                                     before)
    assert model.unused.update_rule.t == 1
    assert model.unused.update_rule.state is None


# -- optimizer hooks --------------------------------------------------------


def _noise(xp, shape, dtype, hook, rule):
    # Deterministic, so that every device adds the same; depends on the
    # step count of the rule it gets, as the default noise does.
    return xp.ones(shape, dtype) * (hook.eta * (rule.t + 1))


def _weight_decay(grads, params):
    return {k: g + 0.1 * params[k] for k, g in grads.items()}


def _lasso(grads, params):
    return {k: g + 0.2 * numpy.sign(params[k]) for k, g in grads.items()}


def _clipping(grads, params):
    norm = numpy.sqrt(sum((g * g).sum() for g in grads.values()))
    rate = min(1.0, 0.8 / norm)
    return {k: g * rate for k, g in grads.items()}


def _hard_clipping(grads, params):
    return {k: numpy.clip(g, -0.3, 0.4) for k, g in grads.items()}


def _lars(grads, params):
    out = {}
    for k, g in grads.items():
        p_norm = numpy.linalg.norm(params[k])
        g_norm = numpy.linalg.norm(g)
        rate = p_norm / (1e-9 + g_norm + 0.05 * p_norm) \
            if p_norm > 0.5 else 1.0
        out[k] = (g + 0.05 * params[k]) * rate
    return out


HOOKS = {
    # name: (make the hook, reference(grads, params, t) -> grads)
    'WeightDecay': (lambda: optimizer_hooks.WeightDecay(0.1),
                    lambda g, p, t: _weight_decay(g, p)),
    'Lasso': (lambda: optimizer_hooks.Lasso(0.2),
              lambda g, p, t: _lasso(g, p)),
    'GradientClipping': (lambda: optimizer_hooks.GradientClipping(0.8),
                         lambda g, p, t: _clipping(g, p)),
    'GradientHardClipping': (
        lambda: optimizer_hooks.GradientHardClipping(-0.3, 0.4),
        lambda g, p, t: _hard_clipping(g, p)),
    'GradientNoise': (
        lambda: optimizer_hooks.GradientNoise(0.25, noise_func=_noise),
        lambda g, p, t: {k: v + 0.25 * (t + 1) for k, v in g.items()}),
    'GradientLARS': (
        lambda: optimizer_hooks.GradientLARS(threshold=0.5,
                                             weight_decay=0.05),
        lambda g, p, t: _lars(g, p)),
}
HOOK_OPTIMIZERS = ['SGD', 'MomentumSGD', 'Adam']


def test_every_hook_of_chainer_v7_is_covered():
    exported = {n for n in dir(optimizer_hooks)
                if isinstance(getattr(optimizer_hooks, n), type)}
    assert exported == set(HOOKS)


def _reference_with_hook(opt_name, hook_name, timing, t0=0):
    """Parameters and final gradients of two float32 steps with the
    hook: before the update, it changes the gradients the update uses;
    after, only the gradients left behind."""
    kwargs, ref, extra = OPTIMIZERS[opt_name]
    kwargs = dict(kwargs, **extra)
    hook_ref = HOOKS[hook_name][1]
    f32 = numpy.float32
    params = {'/lin/W': W0.astype(f32), '/lin/b': B0.astype(f32),
              '/unused': U0.astype(f32),
              '/empty': numpy.zeros((0, 3), f32)}
    params = {k: v.astype(numpy.float64) for k, v in params.items()}
    states = {k: {} for k in params}
    for i in range(2):
        x, c = X[i], C[i]
        grads = {'/lin/W': c.T @ x, '/lin/b': c.sum(0),
                 '/unused': numpy.zeros((2, 2)),
                 '/empty': numpy.zeros((0, 3))}
        if timing == 'pre':
            grads = hook_ref(grads, params, i + t0)
        params = {k: ref(params[k], grads[k], states[k], i + 1, **kwargs)
                  for k in params}
        if timing == 'post':
            # Hooks after the update see the rules' step count advanced.
            grads = hook_ref(grads, params, i + 1)
    return params, grads


@pytest.mark.parametrize('loss_scale', [None, 64.0], ids=['', 'scaled'])
@pytest.mark.parametrize('timing', ['pre', 'post'])
@pytest.mark.parametrize('opt_name', HOOK_OPTIMIZERS)
@pytest.mark.parametrize('hook_name', sorted(HOOKS))
def test_hook_matches_reference(device, hook_name, opt_name, timing,
                                loss_scale):
    model, opt = _make(device, numpy.float32, opt_name)
    if loss_scale is not None:
        opt.loss_scaling(scale=loss_scale)
    opt.add_hook(HOOKS[hook_name][0](), timing=timing)
    for i in range(2):
        _step(device, model, opt, numpy.float32, i)
    params, grads = _reference_with_hook(opt_name, hook_name, timing)
    for name, p in model.namedparams():
        numpy.testing.assert_allclose(
            _host(device, p.array), params[name], rtol=1e-5, atol=1e-5,
            err_msg='param ' + name)
        numpy.testing.assert_allclose(
            _host(device, p.grad), grads[name], rtol=1e-5, atol=1e-5,
            err_msg='grad ' + name)


@pytest.mark.parametrize('hook_name', sorted(set(HOOKS) -
                                             {'GradientClipping'}))
def test_hook_on_one_update_rule(device, hook_name):
    # A per-parameter hook on W alone: b is updated without it.
    model, opt = _make(device, numpy.float32, 'SGD')
    model.lin.W.update_rule.add_hook(HOOKS[hook_name][0]())
    for i in range(2):
        _step(device, model, opt, numpy.float32, i)
    # A rule counts the step before its hooks run.
    with_hook, _ = _reference_with_hook('SGD', hook_name, 'pre', t0=1)
    without = _reference(name='SGD', dtype=numpy.float32, steps=2)
    numpy.testing.assert_allclose(_host(device, model.lin.W.array),
                                  with_hook['/lin/W'], rtol=1e-5, atol=1e-5)
    numpy.testing.assert_allclose(_host(device, model.lin.b.array),
                                  without['/lin/b'], rtol=1e-5, atol=1e-5)


def test_default_gradient_noise_runs_on_the_device(device):
    # The default noise is random: its draw is checked by its spread,
    # sqrt(eta / (1 + t) ** 0.55) with t = 0 before the first update.
    param = chainer.Parameter(device.send(numpy.ones(20000, numpy.float32)))
    param.grad = device.send(numpy.zeros(20000, numpy.float32))
    rule = optimizers.SGD().create_update_rule()
    optimizer_hooks.GradientNoise(0.5)(rule, param)
    noise = _host(device, param.grad)
    assert device.is_array_supported(param.grad)
    assert noise.dtype == numpy.float32
    assert noise.mean() == pytest.approx(0, abs=0.03)
    assert noise.std() == pytest.approx(numpy.sqrt(0.5), rel=0.05)
