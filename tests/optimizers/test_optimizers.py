"""Each optimizer against a reference written from its formula, on its
defaults, per-parameter overrides, convergence and exact resumption."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import optimizers
from chainer_core.serializers import load_npz, save_npz

from chainer_core.testing.conformance.references import (
    ref_ada_delta, ref_ada_grad, ref_adam, ref_corrected_momentum_sgd,
    ref_momentum_sgd, ref_msvag, ref_nesterov_ag, ref_rmsprop,
    ref_rmsprop_graves, ref_sgd, ref_smorms3)

SHAPE = (2, 3)
STEPS = 4


class OneParam(chainer.Link):
    def __init__(self, value):
        super().__init__()
        with self.init_scope():
            self.w = chainer.Parameter(value.copy())


def _grads(seed=0):
    rng = numpy.random.RandomState(seed)
    return [rng.uniform(-1, 1, SHAPE) for _ in range(STEPS)]


def _initial():
    return numpy.random.RandomState(1).uniform(-1, 1, SHAPE)


def _run(optimizer, grads, dtype=numpy.float64):
    link = OneParam(_initial().astype(dtype))
    optimizer.setup(link)
    for g in grads:
        link.w.grad = g.astype(dtype)
        optimizer.update()
    return link.w.array


CASES = [
    (optimizers.SGD, {}, ref_sgd, {}),
    (optimizers.SGD, {'lr': 0.3}, ref_sgd, {'lr': 0.3}),
    (optimizers.MomentumSGD, {}, ref_momentum_sgd, {}),
    (optimizers.MomentumSGD, {'lr': 0.1, 'momentum': 0.5},
     ref_momentum_sgd, {'lr': 0.1, 'momentum': 0.5}),
    (optimizers.CorrectedMomentumSGD, {}, ref_corrected_momentum_sgd, {}),
    (optimizers.CorrectedMomentumSGD, {'lr': 0.2, 'momentum': 0.7},
     ref_corrected_momentum_sgd, {'lr': 0.2, 'momentum': 0.7}),
    (optimizers.NesterovAG, {}, ref_nesterov_ag, {}),
    (optimizers.NesterovAG, {'lr': 0.05, 'momentum': 0.8},
     ref_nesterov_ag, {'lr': 0.05, 'momentum': 0.8}),
    (optimizers.AdaGrad, {}, ref_ada_grad, {}),
    (optimizers.AdaGrad, {'lr': 0.1, 'eps': 1e-3}, ref_ada_grad,
     {'lr': 0.1, 'eps': 1e-3}),
    (optimizers.AdaDelta, {}, ref_ada_delta, {}),
    (optimizers.AdaDelta, {'rho': 0.5, 'eps': 1e-2}, ref_ada_delta,
     {'rho': 0.5, 'eps': 1e-2}),
    (optimizers.RMSprop, {}, ref_rmsprop, {}),
    (optimizers.RMSprop, {'lr': 0.1, 'alpha': 0.5, 'eps': 0.1},
     ref_rmsprop, {'lr': 0.1, 'alpha': 0.5, 'eps': 0.1}),
    (optimizers.RMSprop, {'eps': 0.1, 'eps_inside_sqrt': True},
     ref_rmsprop, {'eps': 0.1, 'eps_inside_sqrt': True}),
    (optimizers.RMSpropGraves, {}, ref_rmsprop_graves, {}),
    (optimizers.RMSpropGraves,
     {'lr': 0.01, 'alpha': 0.5, 'momentum': 0.3, 'eps': 0.01},
     ref_rmsprop_graves,
     {'lr': 0.01, 'alpha': 0.5, 'momentum': 0.3, 'eps': 0.01}),
    (optimizers.SMORMS3, {}, ref_smorms3, {}),
    (optimizers.SMORMS3, {'lr': 0.5, 'eps': 1e-3}, ref_smorms3,
     {'lr': 0.5, 'eps': 1e-3}),
    (optimizers.MSVAG, {}, ref_msvag, {}),
    (optimizers.MSVAG,
     {'lr': 0.5, 'beta': 0.5, 'eta': 0.5, 'weight_decay_rate': 0.1},
     ref_msvag, {'lr': 0.5, 'beta': 0.5, 'eta': 0.5,
                 'weight_decay_rate': 0.1}),
    (optimizers.Adam, {}, ref_adam, {}),
    (optimizers.Adam, {'alpha': 0.1, 'beta1': 0.5, 'beta2': 0.7,
                       'eps': 1e-3, 'eta': 0.5},
     ref_adam, {'alpha': 0.1, 'beta1': 0.5, 'beta2': 0.7, 'eps': 1e-3,
                'eta': 0.5}),
    (optimizers.AdamW, {'weight_decay_rate': 0.1}, ref_adam,
     {'weight_decay_rate': 0.1}),
    (optimizers.Adam, {'weight_decay_rate': 0.1, 'eta': 0.5}, ref_adam,
     {'weight_decay_rate': 0.1, 'eta': 0.5}),
    (optimizers.AMSGrad, {}, ref_adam, {'amsgrad': True}),
    (optimizers.Adam, {'amsgrad': True, 'beta2': 0.5}, ref_adam,
     {'amsgrad': True, 'beta2': 0.5}),
    (optimizers.AdaBound, {}, ref_adam, {'adabound': True}),
    (optimizers.AdaBound, {'final_lr': 0.01, 'gamma': 0.5}, ref_adam,
     {'adabound': True, 'final_lr': 0.01, 'gamma': 0.5}),
    (optimizers.AMSBound, {'final_lr': 0.01, 'gamma': 0.5}, ref_adam,
     {'amsgrad': True, 'adabound': True, 'final_lr': 0.01, 'gamma': 0.5}),
]


@pytest.mark.parametrize('cls, kwargs, ref, ref_kwargs', CASES,
                         ids=lambda v: getattr(v, '__name__', None))
def test_update_matches_reference(cls, kwargs, ref, ref_kwargs):
    grads = _grads()
    actual = _run(cls(**kwargs), grads)
    w, state = _initial(), {}
    for t, g in enumerate(grads, 1):
        w = ref(w, g, state, t, **ref_kwargs)
    numpy.testing.assert_allclose(actual, w, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize('cls, kwargs, ref, ref_kwargs', CASES[::3],
                         ids=lambda v: getattr(v, '__name__', None))
def test_float32_update_close_to_reference(cls, kwargs, ref, ref_kwargs):
    grads = _grads()
    actual = _run(cls(**kwargs), grads, numpy.float32)
    assert actual.dtype == numpy.float32
    w, state = _initial(), {}
    for t, g in enumerate(grads, 1):
        w = ref(w, g, state, t, **ref_kwargs)
    numpy.testing.assert_allclose(actual, w, rtol=1e-4, atol=1e-5)


DEFAULTS = [
    (optimizers.SGD, {'lr': 0.01}),
    (optimizers.MomentumSGD, {'lr': 0.01, 'momentum': 0.9}),
    (optimizers.CorrectedMomentumSGD, {'lr': 0.01, 'momentum': 0.9}),
    (optimizers.NesterovAG, {'lr': 0.01, 'momentum': 0.9}),
    (optimizers.AdaGrad, {'lr': 0.001, 'eps': 1e-8}),
    (optimizers.AdaDelta, {'rho': 0.95, 'eps': 1e-6}),
    (optimizers.RMSprop, {'lr': 0.01, 'alpha': 0.99, 'eps': 1e-8,
                          'eps_inside_sqrt': False}),
    (optimizers.RMSpropGraves, {'lr': 1e-4, 'alpha': 0.95, 'momentum': 0.9,
                                'eps': 1e-4}),
    (optimizers.SMORMS3, {'lr': 0.001, 'eps': 1e-16}),
    (optimizers.MSVAG, {'lr': 0.1, 'beta': 0.9, 'eta': 1.0,
                        'weight_decay_rate': 0}),
    (optimizers.Adam, {'alpha': 0.001, 'beta1': 0.9, 'beta2': 0.999,
                       'eps': 1e-8, 'eta': 1.0, 'weight_decay_rate': 0,
                       'amsgrad': False, 'adabound': False,
                       'final_lr': 0.1, 'gamma': 1e-3}),
    (optimizers.AdamW, {'weight_decay_rate': 0, 'amsgrad': False}),
    (optimizers.AMSGrad, {'amsgrad': True, 'adabound': False}),
    (optimizers.AdaBound, {'amsgrad': False, 'adabound': True}),
    (optimizers.AMSBound, {'amsgrad': True, 'adabound': True}),
]


@pytest.mark.parametrize('cls, expected', DEFAULTS,
                         ids=lambda v: getattr(v, '__name__', None))
def test_defaults_and_proxies(cls, expected):
    opt = cls()
    for name, value in expected.items():
        assert getattr(opt, name) == value
        assert getattr(opt.hyperparam, name) == value
    name = next(iter(expected))
    setattr(opt, name, 0.123)
    assert opt.hyperparam.get_dict()[name] == 0.123


ALL = [optimizers.SGD, optimizers.MomentumSGD,
       optimizers.CorrectedMomentumSGD, optimizers.NesterovAG,
       optimizers.AdaGrad, optimizers.AdaDelta, optimizers.RMSprop,
       optimizers.RMSpropGraves, optimizers.SMORMS3, optimizers.MSVAG,
       optimizers.Adam, optimizers.AdamW, optimizers.AMSGrad,
       optimizers.AdaBound, optimizers.AMSBound]

# Step sizes for a quadratic of scale 1 within 200 steps (some defaults
# are meant for far longer runs).
CONVEX_KWARGS = {
    optimizers.SGD: {'lr': 0.1},
    optimizers.AdaGrad: {'lr': 0.5},
    optimizers.AdaDelta: {'eps': 1e-2},
    optimizers.RMSpropGraves: {'lr': 0.01},
    optimizers.SMORMS3: {'lr': 0.05},
    optimizers.Adam: {'alpha': 0.05},
    optimizers.AdamW: {'alpha': 0.05},
    optimizers.AMSGrad: {'alpha': 0.05},
    optimizers.AdaBound: {'alpha': 0.05},
    optimizers.AMSBound: {'alpha': 0.05},
}


@pytest.mark.parametrize('cls', ALL, ids=lambda c: c.__name__)
def test_reduces_a_convex_loss(cls):
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (16, 3)).astype(numpy.float32)
    w_true = rng.uniform(-1, 1, (2, 3)).astype(numpy.float32)
    t = x.dot(w_true.T)
    model = L.Linear(3, 2, initialW=numpy.zeros((2, 3), numpy.float32))
    opt = cls(**CONVEX_KWARGS.get(cls, {})).setup(model)

    def lossfun():
        return F.mean_squared_error(model(x), t)

    first = float(lossfun().array)
    for _ in range(200):
        opt.update(lossfun)
    last = float(lossfun().array)
    assert last < 0.1 * first
    assert opt.t == 200


def _train(model, opt, data, steps):
    x, t = data
    for _ in range(steps):
        opt.update(lambda: F.mean_squared_error(model(x), t))


def _model_and_data():
    rng = numpy.random.RandomState(3)
    x = rng.uniform(-1, 1, (8, 3)).astype(numpy.float32)
    t = rng.uniform(-1, 1, (8, 2)).astype(numpy.float32)
    model = L.Linear(3, 2, initialW=rng.uniform(-1, 1, (2, 3)).astype(
        numpy.float32))
    return model, (x, t)


@pytest.mark.parametrize('cls', ALL, ids=lambda c: c.__name__)
def test_resume_from_npz_continues_exactly(cls, tmp_path):
    model, data = _model_and_data()
    opt = cls().setup(model)
    _train(model, opt, data, 10)
    expected = {n: p.array.copy() for n, p in model.namedparams()}

    model, data = _model_and_data()
    opt = cls().setup(model)
    _train(model, opt, data, 5)
    save_npz(str(tmp_path / 'model.npz'), model)
    save_npz(str(tmp_path / 'opt.npz'), opt)

    model2, _ = _model_and_data()
    opt2 = cls().setup(model2)
    load_npz(str(tmp_path / 'model.npz'), model2)
    load_npz(str(tmp_path / 'opt.npz'), opt2)
    assert opt2.t == 5
    assert model2.W.update_rule.t == 5
    _train(model2, opt2, data, 5)
    for name, p in model2.namedparams():
        numpy.testing.assert_array_equal(p.array, expected[name])


def test_per_parameter_hyperparameter_override():
    model = L.Linear(3, 2)
    opt = optimizers.SGD(lr=0.1).setup(model)
    model.W.update_rule.hyperparam.lr = 0.0
    w0, b0 = model.W.array.copy(), model.b.array.copy()
    model.W.grad = numpy.ones_like(w0)
    model.b.grad = numpy.ones_like(b0)
    opt.update()
    numpy.testing.assert_array_equal(model.W.array, w0)
    numpy.testing.assert_allclose(model.b.array, b0 - 0.1)
    # The rule falls back to the optimizer for what it does not override.
    assert model.b.update_rule.hyperparam.lr == 0.1
    opt.lr = 0.5
    assert model.b.update_rule.hyperparam.lr == 0.5
    assert model.W.update_rule.hyperparam.lr == 0.0


def test_adam_alpha_t_and_deprecated_lr():
    opt = optimizers.Adam(alpha=0.1, beta1=0.5, beta2=0.75)
    opt.setup(OneParam(numpy.zeros(2)))
    with pytest.raises(RuntimeError):
        opt.alpha_t
    opt.t = 2
    expected = 0.1 * math.sqrt(1 - 0.75 ** 2) / (1 - 0.5 ** 2)
    assert opt.alpha_t == pytest.approx(expected)
    with pytest.warns(DeprecationWarning):
        assert opt.lr == pytest.approx(expected)


def test_adam_eps_zero_is_allowed_but_underflow_is_an_error():
    link = OneParam(numpy.ones(3, numpy.float32))
    opt = optimizers.Adam(eps=0).setup(link)
    link.w.grad = numpy.ones(3, numpy.float32)
    opt.update()
    assert numpy.isfinite(link.w.array).all()
    opt.eps = 1e-50
    link.w.grad = numpy.ones(3, numpy.float32)
    with pytest.raises(ValueError, match='too small'):
        opt.update()


def test_adam_float16_moments_are_computed_in_float32():
    link = OneParam(numpy.ones(3, numpy.float16))
    opt = optimizers.Adam(alpha=0.01).setup(link)
    link.w.grad = numpy.full(3, 1e-4, numpy.float16)
    opt.update()
    # A step of about alpha: in float16, 1e-4 ** 2 would flush to 0 and the
    # step would be 1e-4 / eps.
    numpy.testing.assert_allclose(link.w.array, 0.99, rtol=1e-3)
    assert link.w.array.dtype == numpy.float16


def test_adabound_bounds_follow_alpha():
    opt = optimizers.AdaBound(alpha=0.01, final_lr=0.1, gamma=0.5)
    link = OneParam(numpy.zeros(2))
    opt.setup(link)
    rule = link.w.update_rule
    rule.t = 1
    lower, upper = rule.bounds
    assert lower == pytest.approx(0.1 * (1 - 1 / 1.5))
    assert upper == pytest.approx(0.1 * 3)
    opt.alpha = 0.02
    lower2, _ = rule.bounds
    assert lower2 == pytest.approx(2 * lower)


def test_rmsprop_eps_too_small_for_dtype():
    link = OneParam(numpy.ones(2, numpy.float16))
    opt = optimizers.RMSprop(eps=1e-10).setup(link)
    link.w.grad = numpy.ones(2, numpy.float16)
    with pytest.raises(ValueError, match='too small for float16'):
        opt.update()


def test_msvag_first_step_and_zero_gradient_are_finite():
    link = OneParam(numpy.ones(3))
    opt = optimizers.MSVAG().setup(link)
    link.w.grad = numpy.array([0.0, 1.0, -2.0])
    opt.update()
    assert numpy.isfinite(link.w.array).all()
    assert link.w.array[0] == 1.0


def test_optimizers_module_exports_chainer_names():
    for name in ['AdaDelta', 'AdaGrad', 'Adam', 'AdamW', 'AMSGrad',
                 'AdaBound', 'AMSBound', 'CorrectedMomentumSGD',
                 'MomentumSGD', 'NesterovAG', 'MSVAG', 'RMSprop',
                 'RMSpropGraves', 'SGD', 'SMORMS3']:
        assert issubclass(getattr(optimizers, name), chainer.GradientMethod)
    from chainer_core.optimizers import adam, rmsprop  # NOQA
    assert issubclass(optimizers.adam.AdamRule, chainer.UpdateRule)
