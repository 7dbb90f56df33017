"""Optimizer hooks: their effect on the gradients, on the optimizer or on
one update rule, their timing, and their behaviour under loss scaling."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import optimizer_hooks, optimizers


class Two(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.p = chainer.Parameter(
                numpy.array([[1.0, -2.0], [3.0, 0.5]], numpy.float32))
            self.q = chainer.Parameter(
                numpy.array([-1.0, 4.0, 0.0], numpy.float32))


G = {'p': numpy.array([[0.5, 0.5], [-1.0, 2.0]], numpy.float32),
     'q': numpy.array([3.0, -4.0, 1.0], numpy.float32)}


def _update(hook, lr=1.0, loss_scale=None, on_rule=None):
    """One SGD step with ``hook``; returns the new parameters."""
    model = Two()
    opt = optimizers.SGD(lr=lr).setup(model)
    if on_rule is None:
        opt.add_hook(hook)
    else:
        getattr(model, on_rule).update_rule.add_hook(hook)
    for name, p in model.namedparams():
        g = G[name.strip('/')]
        p.grad = g * loss_scale if loss_scale else g.copy()
        p._loss_scale = loss_scale
    opt.update()
    return {n.strip('/'): p.array for n, p in model.namedparams()}


def _sgd(grads):
    start = Two()
    return {n.strip('/'): p.array - grads[n.strip('/')]
            for n, p in start.namedparams()}


def _params():
    return {n.strip('/'): p.array.copy() for n, p in Two().namedparams()}


def _assert_params(actual, expected):
    for name in expected:
        numpy.testing.assert_allclose(actual[name], expected[name],
                                      rtol=1e-6, atol=1e-6)


def test_weight_decay():
    w = _params()
    expected = _sgd({k: G[k] + 0.1 * w[k] for k in G})
    _assert_params(_update(optimizer_hooks.WeightDecay(0.1)), expected)


def test_lasso():
    w = _params()
    expected = _sgd({k: G[k] + 0.1 * numpy.sign(w[k]) for k in G})
    _assert_params(_update(optimizer_hooks.Lasso(0.1)), expected)


def test_gradient_hard_clipping():
    expected = _sgd({k: numpy.clip(G[k], -0.75, 1.5) for k in G})
    _assert_params(_update(optimizer_hooks.GradientHardClipping(-0.75, 1.5)),
                   expected)


def test_gradient_clipping_rescales_the_joint_norm():
    norm = numpy.sqrt(sum((g.astype(numpy.float64) ** 2).sum()
                          for g in G.values()))
    expected = _sgd({k: G[k] * 2.0 / norm for k in G})
    _assert_params(_update(optimizer_hooks.GradientClipping(2.0)), expected)
    # Below the threshold nothing changes.
    _assert_params(_update(optimizer_hooks.GradientClipping(100.0)), _sgd(G))


def test_gradient_clipping_of_float16_gradients_does_not_overflow():
    model = Two()
    opt = optimizers.SGD(lr=0.0).setup(model)
    opt.add_hook(optimizer_hooks.GradientClipping(1.0))
    for p in model.params():
        p.array = p.array.astype(numpy.float16)
        p.grad = numpy.full(p.shape, 300.0, numpy.float16)
    opt.update()
    total = numpy.sqrt(sum((p.grad.astype(numpy.float64) ** 2).sum()
                           for p in model.params()))
    assert total == pytest.approx(1.0, rel=1e-2)


def test_gradient_noise_uses_the_noise_function():
    calls = []

    def noise(xp, shape, dtype, hook, rule):
        calls.append((shape, dtype, hook.eta, rule.t))
        return xp.full(shape, hook.eta, dtype)

    expected = _sgd({k: G[k] + 0.25 for k in G})
    _assert_params(_update(optimizer_hooks.GradientNoise(0.25, noise)),
                   expected)
    assert sorted(c[0] for c in calls) == [(2, 2), (3,)]
    assert all(c[1] == numpy.float32 and c[2] == 0.25 for c in calls)


def test_gradient_noise_default_is_annealed_gaussian():
    rng_state = numpy.random.get_state()
    try:
        numpy.random.seed(0)

        class Rule:
            t = 3

        noise = optimizer_hooks.exponential_decay_noise(
            numpy, (20000,), numpy.float32,
            optimizer_hooks.GradientNoise(0.3), Rule())
    finally:
        numpy.random.set_state(rng_state)
    assert noise.dtype == numpy.float32
    assert noise.std() == pytest.approx(numpy.sqrt(0.3 / 4 ** 0.55),
                                        rel=0.03)


def test_gradient_lars():
    hook = optimizer_hooks.GradientLARS(threshold=2.0, weight_decay=0.1,
                                        eps=1e-9)
    w = _params()
    grads = {}
    for k in G:
        p_norm = numpy.linalg.norm(w[k])
        g_norm = numpy.linalg.norm(G[k])
        rate = p_norm / (1e-9 + g_norm + 0.1 * p_norm) \
            if p_norm > 2.0 else 1.0
        grads[k] = (G[k] + 0.1 * w[k]) * rate
    _assert_params(_update(hook), _sgd(grads))


@pytest.mark.parametrize('make_hook', [
    lambda: optimizer_hooks.WeightDecay(0.1),
    lambda: optimizer_hooks.Lasso(0.1),
    lambda: optimizer_hooks.GradientHardClipping(-0.75, 1.5),
    lambda: optimizer_hooks.GradientClipping(2.0),
    lambda: optimizer_hooks.GradientLARS(threshold=2.0, weight_decay=0.1),
    lambda: optimizer_hooks.GradientNoise(
        0.5, lambda xp, shape, dtype, hook, rule: xp.full(shape, 0.5,
                                                          dtype)),
], ids=['WeightDecay', 'Lasso', 'GradientHardClipping', 'GradientClipping',
        'GradientLARS', 'GradientNoise'])
def test_hooks_give_the_same_update_under_loss_scaling(make_hook):
    _assert_params(_update(make_hook(), loss_scale=64.0),
                   _update(make_hook()))


@pytest.mark.parametrize('make_hook', [
    lambda: optimizer_hooks.WeightDecay(0.1),
    lambda: optimizer_hooks.Lasso(0.1),
    lambda: optimizer_hooks.GradientHardClipping(-0.75, 1.5),
    lambda: optimizer_hooks.GradientLARS(threshold=2.0, weight_decay=0.1),
], ids=['WeightDecay', 'Lasso', 'GradientHardClipping', 'GradientLARS'])
def test_hooks_on_one_update_rule(make_hook):
    on_p = _update(make_hook(), on_rule='p')
    everywhere = _update(make_hook())
    plain = _sgd(G)
    numpy.testing.assert_allclose(on_p['p'], everywhere['p'], rtol=1e-6)
    numpy.testing.assert_allclose(on_p['q'], plain['q'], rtol=1e-6)
    # On a rule the gradients are already unscaled.
    scaled = _update(make_hook(), on_rule='p', loss_scale=64.0)
    numpy.testing.assert_allclose(scaled['p'], on_p['p'], rtol=1e-6)


def test_post_timing_runs_after_the_update():
    model = Two()
    opt = optimizers.SGD(lr=1.0).setup(model)
    hook = optimizer_hooks.WeightDecay(0.5)
    hook.timing = 'post'
    opt.add_hook(hook)
    for name, p in model.namedparams():
        p.grad = G[name.strip('/')].copy()
    opt.update()
    expected = _sgd(G)
    numpy.testing.assert_allclose(model.p.array, expected['p'])
    numpy.testing.assert_allclose(model.p.grad,
                                  G['p'] + 0.5 * expected['p'])


def test_hook_names_attributes_and_uninitialised_parameters():
    for cls, args in [(optimizer_hooks.WeightDecay, (0.1,)),
                      (optimizer_hooks.Lasso, (0.1,)),
                      (optimizer_hooks.GradientHardClipping, (-1, 1)),
                      (optimizer_hooks.GradientNoise, (0.1,)),
                      (optimizer_hooks.GradientLARS, ())]:
        hook = cls(*args)
        assert hook.name == cls.__name__
        assert hook.timing == 'pre' and hook.call_for_each_param
        lazy = chainer.Parameter()
        hook(None, lazy)
    clip = optimizer_hooks.GradientClipping(1.0)
    assert clip.name == 'GradientClipping' and clip.timing == 'pre'
    assert not getattr(clip, 'call_for_each_param', False)


def test_weight_decay_with_update_lossfun():
    model = Two()
    opt = optimizers.SGD(lr=0.1).setup(model)
    opt.add_hook(optimizer_hooks.WeightDecay(1.0))
    start = model.p.array.copy()
    opt.update(lambda: F.sum(model.p * 0.0) + F.sum(model.q * 0.0))
    numpy.testing.assert_allclose(model.p.array, start * 0.9, rtol=1e-6)
