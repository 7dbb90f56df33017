"""The optimizer machinery: hyperparameters, update rules, hooks, epochs,
loss scaling, float32 updates of float16 parameters and serialization."""
import copy
import pickle
import warnings

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import optimizer, optimizers
from chainer_core.serializers import (
    DictionarySerializer, NpzDeserializer, load_npz, save_npz)


class OneParam(chainer.Link):
    def __init__(self, value, dtype=numpy.float32):
        super().__init__()
        with self.init_scope():
            self.w = chainer.Parameter(numpy.asarray(value, dtype=dtype))


class Pair(chainer.Chain):
    def __init__(self, dtype=numpy.float32):
        super().__init__()
        with self.init_scope():
            self.a = OneParam([1.0, 2.0], dtype)
            self.b = OneParam([3.0], dtype)


# -- Hyperparameter -------------------------------------------------------


def test_hyperparameter_falls_back_to_its_parent():
    parent = optimizer.Hyperparameter()
    parent.lr = 0.1
    parent.momentum = 0.9
    child = optimizer.Hyperparameter(parent)
    child.lr = 0.5
    assert child.lr == 0.5 and child.momentum == 0.9
    assert child.parent is parent
    assert child.get_dict() == {'lr': 0.5, 'momentum': 0.9}
    assert repr(child) == 'Hyperparameter(lr=0.5, momentum=0.9)'
    with pytest.raises(AttributeError):
        child.beta


def test_hyperparameter_copies_and_pickles():
    parent = optimizer.Hyperparameter()
    parent.lr = 0.1
    child = optimizer.Hyperparameter(parent)
    for clone in (copy.deepcopy(child), pickle.loads(pickle.dumps(child))):
        assert clone.lr == 0.1


def test_optimizer_pickles_with_its_target():
    model = L.Linear(2, 3)
    opt = optimizers.Adam().setup(model)
    opt.update(lambda: F.sum(model(numpy.ones((1, 2), numpy.float32))))
    clone = pickle.loads(pickle.dumps(opt))
    assert clone.t == 1
    numpy.testing.assert_array_equal(
        clone.target.W.update_rule.state['m'], model.W.update_rule.state['m'])


# -- UpdateRule -----------------------------------------------------------


class CountingRule(optimizer.UpdateRule):
    def init_state(self, param):
        self.state['n'] = param.xp.zeros_like(param.array)

    def update_core(self, param):
        self.state['n'] += 1
        param.array -= param.grad


def _param(value=(1.0, 2.0), grad=(1.0, 1.0), dtype=numpy.float32):
    p = chainer.Parameter(numpy.asarray(value, dtype))
    if grad is not None:
        p.grad = numpy.asarray(grad, dtype)
    return p


def test_update_rule_runs_hooks_in_order_around_the_update():
    rule = CountingRule()
    p = _param()
    calls = []
    rule.add_hook(lambda r, q: calls.append(('pre', q.array.copy())),
                  name='a')
    rule.add_hook(lambda r, q: calls.append(('post', q.array.copy())),
                  name='b', timing='post')
    p.update_rule = rule
    p.update()
    assert [c[0] for c in calls] == ['pre', 'post']
    numpy.testing.assert_array_equal(calls[0][1], [1, 2])
    numpy.testing.assert_array_equal(calls[1][1], [0, 1])
    assert rule.t == 1
    rule.remove_hook('a')
    rule.remove_hook('b')
    with pytest.raises(KeyError):
        rule.remove_hook('a')


def test_update_rule_hook_timing_auto_and_errors():
    rule = CountingRule()

    class PostHook:
        name = 'post_hook'
        timing = 'post'

        def __call__(self, rule, param):
            pass

    rule.add_hook(PostHook())
    assert 'post_hook' in rule._post_update_hooks
    with pytest.raises(ValueError):
        rule.add_hook(PostHook())
    with pytest.raises(TypeError):
        rule.add_hook(1)
    with pytest.raises(ValueError):
        rule.add_hook(PostHook(), name='x', timing='later')
    with warnings.catch_warnings():
        # Unlike Optimizer.add_hook, rules take untimed hooks silently.
        warnings.simplefilter('error')
        rule.add_hook(lambda r, p: None, name='no_timing')
    assert 'no_timing' in rule._pre_update_hooks


def test_disabled_rule_and_missing_grad_leave_the_parameter():
    rule = CountingRule()
    p = _param()
    p.update_rule = rule
    rule.enabled = False
    p.update()
    assert rule.t == 0 and rule.state is None
    rule.enabled = True
    p.grad = None
    p.update()
    assert rule.t == 1
    numpy.testing.assert_array_equal(p.array, [1, 2])


def test_update_core_dispatches_to_cpu():
    class CpuRule(optimizer.UpdateRule):
        def update_core_cpu(self, param):
            param.array -= 2 * param.grad

    p = _param()
    p.update_rule = CpuRule()
    p.update()
    numpy.testing.assert_array_equal(p.array, [-1, 0])
    p.update_rule = optimizer.UpdateRule()
    with pytest.raises(NotImplementedError):
        p.update()


def test_update_rule_divides_the_loss_scale_once():
    rule = CountingRule()
    p = _param(grad=(8.0, 8.0))
    p._loss_scale = 4.0
    p.update_rule = rule
    p.update()
    numpy.testing.assert_array_equal(p.array, [-1, 0])
    p.update()
    numpy.testing.assert_array_equal(p.array, [-3, -2])


def test_update_rule_serialize_round_trip():
    rule = CountingRule()
    p = _param()
    p.update_rule = rule
    p.update()
    p.update()
    s = DictionarySerializer()
    rule.serialize(s)
    assert set(s.target) == {'t', 'n'}
    fresh = CountingRule()
    fresh.serialize(NpzDeserializer(s.target))
    assert fresh.t == 2
    numpy.testing.assert_array_equal(fresh.state['n'], [2, 2])


def test_update_rule_without_saved_state_starts_afresh():
    saved = DictionarySerializer()
    saved('t', 0)
    saved('n', None)
    fresh = CountingRule()
    fresh.serialize(NpzDeserializer(saved.target))
    assert fresh.state is None


def test_a_model_with_a_never_updated_parameter_resumes(tmp_path):
    model = chainer.Sequential(L.Linear(2, 3))
    model.append(L.Linear(None, 4))
    opt = optimizers.Adam().setup(model)
    lazy = model[1]
    assert lazy.W.array is None
    model[0].W.grad = numpy.ones((3, 2), numpy.float32)
    model[0].b.grad = numpy.ones(3, numpy.float32)
    opt.update()
    assert lazy.W.update_rule.state is None
    path = str(tmp_path / 'opt.npz')
    save_npz(path, opt)
    fresh = chainer.Sequential(L.Linear(2, 3))
    fresh.append(L.Linear(None, 4))
    opt2 = optimizers.Adam().setup(fresh)
    load_npz(path, opt2)
    assert fresh[1].W.update_rule.state is None
    numpy.testing.assert_array_equal(fresh[0].W.update_rule.state['m'],
                                     model[0].W.update_rule.state['m'])


def test_disabled_rule_tolerates_missing_state_keys():
    fresh = CountingRule()
    fresh.enabled = False
    fresh.serialize(NpzDeserializer({'t': numpy.asarray(3)}))
    assert fresh.t == 3 and fresh.state is None
    enabled = CountingRule()
    with pytest.raises(KeyError):
        enabled.serialize(NpzDeserializer({'t': numpy.asarray(3)}))


# -- Optimizer ------------------------------------------------------------


def test_setup_requires_a_link_and_returns_self():
    opt = optimizers.SGD()
    with pytest.raises(TypeError):
        opt.setup(object())
    model = Pair()
    assert opt.setup(model) is opt
    assert opt.target is model
    for p in model.params():
        assert isinstance(p.update_rule, optimizers.sgd.SGDRule)


def test_update_before_setup_is_an_error():
    with pytest.raises(RuntimeError, match='setup'):
        optimizers.SGD().update()
    with pytest.raises(RuntimeError, match='setup'):
        optimizers.SGD().add_hook(lambda opt: None, name='h')


def test_update_with_lossfun_clears_grads_and_backprops():
    model = OneParam([1.0, -2.0])
    opt = optimizers.SGD(lr=0.5).setup(model)
    model.w.grad = numpy.array([100.0, 100.0], numpy.float32)

    def lossfun(scale):
        return F.sum(model.w * model.w) * scale

    opt.update(lossfun, 1.0)
    numpy.testing.assert_allclose(model.w.array, [0.0, 0.0])
    numpy.testing.assert_allclose(model.w.grad, [2.0, -4.0])
    assert opt.t == 1


def test_update_without_lossfun_uses_existing_grads_and_allocates_missing():
    model = Pair()
    opt = optimizers.SGD(lr=1.0).setup(model)
    model.a.w.grad = numpy.array([1.0, 1.0], numpy.float32)
    model.b.w.grad = None
    opt.update()
    numpy.testing.assert_array_equal(model.a.w.array, [0, 1])
    numpy.testing.assert_array_equal(model.b.w.array, [3])
    numpy.testing.assert_array_equal(model.b.w.grad, [0])


def test_use_cleargrads_false_zeros_instead():
    model = OneParam([1.0])
    opt = optimizers.SGD(lr=0.0).setup(model)
    with pytest.warns(DeprecationWarning):
        opt.use_cleargrads(False)
        opt.update(lambda: F.sum(model.w))
    numpy.testing.assert_array_equal(model.w.grad, [1])


def test_new_epoch():
    opt = optimizers.SGD().setup(OneParam([1.0]))
    opt.new_epoch()
    assert opt.epoch == 1
    with pytest.raises(RuntimeError):
        opt.new_epoch(auto=True)
    opt.use_auto_new_epoch = True
    opt.new_epoch(auto=True)
    assert opt.epoch == 2
    with pytest.raises(RuntimeError):
        opt.new_epoch()


def test_optimizer_hooks_timing_order_and_each_param():
    model = Pair()
    opt = optimizers.SGD(lr=1.0).setup(model)
    calls = []

    def pre(o):
        calls.append(('pre', o.t, model.a.w.array[0]))

    def post(o):
        calls.append(('post', o.t, model.a.w.array[0]))

    class EachParam:
        name = 'each'
        call_for_each_param = True
        timing = 'pre'

        def __call__(self, rule, param):
            calls.append(('each', rule is param.update_rule, param.name))

    opt.add_hook(pre)
    opt.add_hook(post, timing='post')
    opt.add_hook(EachParam())
    with pytest.raises(KeyError):
        opt.add_hook(pre, timing='pre')
    for p in model.params():
        p.grad = numpy.ones_like(p.array)
    opt.update()
    assert calls[0] == ('pre', 0, 1.0)
    assert calls[1:3] == [('each', True, 'w'), ('each', True, 'w')]
    assert calls[3] == ('post', 1, 0.0)
    opt.remove_hook('pre')
    opt.remove_hook('post')
    opt.remove_hook('each')
    with pytest.raises(KeyError):
        opt.remove_hook('pre')


def test_hook_that_clears_grads_gets_them_reallocated():
    model = OneParam([1.0])
    opt = optimizers.SGD().setup(model)
    seen = []
    opt.add_hook(lambda o: model.cleargrads(), name='clear', timing='pre')
    opt.add_hook(lambda o: seen.append(model.w.grad), name='look',
                 timing='pre')
    model.w.grad = numpy.ones(1, numpy.float32)
    opt.update()
    numpy.testing.assert_array_equal(seen[0], [0])


def test_serialize_saves_counters_and_rule_states(tmp_path):
    model = L.Linear(2, 3)
    opt = optimizers.MomentumSGD().setup(model)
    opt.update(lambda: F.sum(model(numpy.ones((1, 2), numpy.float32))))
    opt.new_epoch()
    s = DictionarySerializer()
    opt.serialize(s)
    assert {'t', 'epoch', 'W/t', 'W/v', 'b/t', 'b/v'} <= set(s.target)
    path = str(tmp_path / 'opt.npz')
    save_npz(path, opt)
    opt2 = optimizers.MomentumSGD().setup(L.Linear(2, 3))
    load_npz(path, opt2)
    assert (opt2.t, opt2.epoch) == (1, 1)
    numpy.testing.assert_array_equal(opt2.target.W.update_rule.state['v'],
                                     model.W.update_rule.state['v'])


# -- loss scaling ---------------------------------------------------------


def _quadratic_step(opt, model, steps=3):
    for _ in range(steps):
        opt.update(lambda: F.sum(model.w * model.w * 0.5))


def test_static_loss_scale_gives_the_unscaled_update():
    ref = OneParam([1.0, -3.0])
    ref_opt = optimizers.MomentumSGD(lr=0.1).setup(ref)
    _quadratic_step(ref_opt, ref)
    model = OneParam([1.0, -3.0])
    opt = optimizers.MomentumSGD(lr=0.1).setup(model)
    opt.set_loss_scale(256.0)
    seen = []
    opt.add_hook(lambda o: seen.append(model.w.grad.copy()), name='look',
                 timing='pre')
    _quadratic_step(opt, model)
    numpy.testing.assert_allclose(model.w.array, ref.w.array, rtol=1e-6)
    # Optimizer hooks see the scaled gradients, as in Chainer.
    numpy.testing.assert_allclose(seen[0], [256.0, -768.0])
    with pytest.raises(ValueError):
        opt.set_loss_scale(0)


def test_dynamic_loss_scaling_grows_and_skips_non_finite_updates():
    model = OneParam([1.0, 2.0])
    opt = optimizers.SGD(lr=0.1).setup(model)
    opt.loss_scaling(interval=4)
    assert opt._loss_scale == 1.0
    factor = {'value': 1.0}

    def lossfun():
        return F.sum(model.w * factor['value'])

    opt.update(lossfun)
    opt.update(lossfun)
    numpy.testing.assert_allclose(model.w.array, [0.8, 1.8], rtol=1e-6)
    # No overflow yet: the scale doubles every update.
    assert opt._loss_scale == 4.0

    factor['value'] = numpy.float32(numpy.inf)
    before = model.w.array.copy()
    with pytest.warns(UserWarning, match='non-finite'):
        opt.update(lossfun)
    numpy.testing.assert_array_equal(model.w.array, before)
    assert opt._loss_scale == 2.0
    assert opt.t == 3
    assert model.w.update_rule.t == 2

    factor['value'] = 1.0
    opt.update(lossfun)
    numpy.testing.assert_allclose(model.w.array, [0.7, 1.7], rtol=1e-6)
    # After an overflow the scale doubles over `interval` updates.
    assert opt._loss_scale == pytest.approx(2.0 * 2 ** 0.25)


def test_dynamic_loss_scale_stays_within_float16_range():
    model = OneParam([1.0])
    opt = optimizers.SGD(lr=0.0).setup(model)
    opt.loss_scaling()
    for _ in range(20):
        opt.update(lambda: F.sum(model.w))
    assert opt._loss_scale == 65504
    with pytest.raises(ValueError):
        opt.loss_scaling(interval=0)


def test_dynamic_loss_scaling_state_is_serialized(tmp_path):
    model = OneParam([1.0])
    opt = optimizers.SGD(lr=0.0).setup(model)
    opt.loss_scaling()
    for _ in range(3):
        opt.update(lambda: F.sum(model.w))
    path = str(tmp_path / 'opt.npz')
    save_npz(path, opt)
    opt2 = optimizers.SGD(lr=0.0).setup(OneParam([1.0]))
    opt2.loss_scaling()
    load_npz(path, opt2)
    assert opt2._loss_scale == opt._loss_scale == 8.0


def test_no_warning_without_dynamic_loss_scaling():
    model = OneParam([1.0])
    opt = optimizers.SGD().setup(model)
    model.w.grad = numpy.array([numpy.nan], numpy.float32)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        opt.update()
    assert numpy.isnan(model.w.array).all()


# -- float32 update of float16 parameters ---------------------------------


def test_fp32_update_accumulates_steps_float16_cannot_hold():
    small = 1e-4

    def run(fp32):
        model = OneParam([1.0], numpy.float16)
        opt = optimizers.SGD(lr=small)
        if fp32:
            opt.use_fp32_update()
        opt.setup(model)
        for _ in range(20):
            model.w.grad = numpy.ones(1, numpy.float16)
            opt.update()
        return model.w.array

    assert run(False)[0] == 1.0
    out = run(True)
    assert out.dtype == numpy.float16
    assert out[0] == numpy.float16(1.0 - 20 * small)


def test_fp32_update_with_loss_scale_and_hooks():
    model = OneParam([1.0, -1.0], numpy.float16)
    opt = optimizers.SGD(lr=0.5)
    opt.setup(model)
    opt.use_fp32_update()
    seen = []
    model.w.update_rule.add_hook(
        lambda rule, p: seen.append((p.dtype, p.grad.copy())), name='look')
    opt.set_loss_scale(1024.0)
    opt.update(lambda: F.sum(model.w * model.w))
    assert seen[0][0] == numpy.float32
    numpy.testing.assert_allclose(seen[0][1], [2.0, -2.0])
    numpy.testing.assert_array_equal(model.w.array, [0.0, 0.0])


def test_fp32_master_copy_is_serialized(tmp_path):
    def fresh():
        model = OneParam([1.0], numpy.float16)
        opt = optimizers.SGD(lr=1e-4)
        opt.use_fp32_update()
        return model, opt.setup(model)

    def step(model, opt, n):
        for _ in range(n):
            model.w.grad = numpy.ones(1, numpy.float16)
            opt.update()

    model, opt = fresh()
    step(model, opt, 10)
    expected = model.w.update_rule._fp32_param.array.copy()
    step(model, opt, 10)
    expected_end = model.w.array.copy()

    model, opt = fresh()
    step(model, opt, 10)
    save_npz(str(tmp_path / 'm.npz'), model)
    save_npz(str(tmp_path / 'o.npz'), opt)
    model2, opt2 = fresh()
    load_npz(str(tmp_path / 'm.npz'), model2)
    load_npz(str(tmp_path / 'o.npz'), opt2)
    numpy.testing.assert_array_equal(
        model2.w.update_rule._fp32_param.array, expected)
    step(model2, opt2, 10)
    numpy.testing.assert_array_equal(model2.w.array, expected_end)


def test_fp32_update_loads_a_snapshot_without_master_copy(tmp_path):
    model = OneParam([1.0], numpy.float16)
    opt = optimizers.SGD().setup(model)
    path = str(tmp_path / 'o.npz')
    save_npz(path, opt)
    opt2 = optimizers.SGD()
    opt2.use_fp32_update()
    opt2.setup(OneParam([1.0], numpy.float16))
    load_npz(path, opt2)
    assert opt2.target.w.update_rule._fp32_param is None


# -- module layout --------------------------------------------------------


def test_top_level_names_and_legacy_hook_aliases():
    assert chainer.Optimizer is optimizer.Optimizer
    assert chainer.GradientMethod is optimizer.GradientMethod
    assert chainer.UpdateRule is optimizer.UpdateRule
    assert chainer.Hyperparameter is optimizer.Hyperparameter
    from chainer_core import optimizer_hooks
    assert issubclass(optimizer.WeightDecay, optimizer_hooks.WeightDecay)
    assert issubclass(optimizer.GradientClipping,
                      optimizer_hooks.GradientClipping)
