"""What Chainer code relies on from ``chainer.optimizer``: setup, update
with a loss function, hooks and their timing, epochs, hyperparameters and
their per-parameter overrides, disabled rules, and the deprecated names.
Expected values and errors are those of Chainer 7.8.1 on the same code."""
import warnings

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import optimizer, optimizer_hooks, optimizers


class Two(chainer.Link):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.a = chainer.Parameter(
                numpy.array([1.0, -2.0], numpy.float32))
            self.b = chainer.Parameter(
                numpy.array([0.5, 3.0], numpy.float32))


@pytest.mark.parametrize('target', [
    1, numpy.zeros(3), chainer.Variable(numpy.zeros(3))],
    ids=['int', 'ndarray', 'Variable'])
def test_setup_of_a_non_link(target):
    with pytest.raises(TypeError,
                       match='^optimization target must be a link'):
        optimizers.SGD().setup(target)


def test_update_hooks_overrides_and_disabled_rules():
    model = Two()
    opt = optimizers.MomentumSGD(lr=0.1, momentum=0.5).setup(model)
    log = []
    with warnings.catch_warnings():
        # Plain functions without a timing run before the update, silently.
        warnings.simplefilter('error')
        opt.add_hook(lambda o: log.append(('pre', o.t, model.a.array[0])),
                     name='p')
    opt.add_hook(lambda o: log.append(('post', o.t, model.a.array[0])),
                 name='q', timing='post')
    opt.add_hook(optimizer_hooks.WeightDecay(0.1))

    def lossfun(x, scale=1.0):
        return F.sum(model.a * x) * scale + F.sum(model.b * model.b)

    x = numpy.array([1.0, 2.0], numpy.float32)
    opt.update(lossfun, x, scale=2.0)
    numpy.testing.assert_allclose(model.a.array, [0.79, -2.38], rtol=1e-6)
    numpy.testing.assert_allclose(model.b.array, [0.395, 2.37], rtol=1e-6)
    numpy.testing.assert_allclose(model.a.grad, [2.1, 3.8], rtol=1e-6)
    assert opt.t == 1

    model.b.update_rule.hyperparam.lr = 1.0
    model.a.update_rule.enabled = False
    opt.update(lossfun, x)
    numpy.testing.assert_allclose(model.a.array, [0.79, -2.38], rtol=1e-6)
    numpy.testing.assert_allclose(model.b.array, [-0.487, -2.922],
                                  rtol=1e-6)
    assert (opt.t, model.a.update_rule.t, model.b.update_rule.t) == (2, 1, 2)
    assert opt.lr == 0.1 and model.b.update_rule.hyperparam.lr == 1.0

    model.a.update_rule.enabled = True
    opt.lr = 0.2
    opt.remove_hook('WeightDecay')
    opt.update(lossfun, x)
    numpy.testing.assert_allclose(model.a.array, [0.485, -2.97], rtol=1e-6)
    numpy.testing.assert_allclose(model.b.array, [0.046, 0.276], rtol=1e-5)
    assert opt.t == 3 and model.a.update_rule.t == 2
    assert sorted(model.a.update_rule.state) == ['v']

    expected_log = [('pre', 0, 1.0), ('post', 1, 0.79), ('pre', 1, 0.79),
                    ('post', 2, 0.79), ('pre', 2, 0.79), ('post', 3, 0.485)]
    assert [(k, t) for k, t, _ in log] == [(k, t) for k, t, _ in
                                           expected_log]
    numpy.testing.assert_allclose([v for _, _, v in log],
                                  [v for _, _, v in expected_log],
                                  rtol=1e-6)
    assert opt.hyperparam.get_dict() == {'lr': 0.2, 'momentum': 0.5}
    assert model.b.update_rule.hyperparam.get_dict() == {
        'lr': 1.0, 'momentum': 0.5}
    assert model.b.update_rule.hyperparam.parent is opt.hyperparam


def test_hook_errors():
    opt = optimizers.SGD()
    with pytest.raises(RuntimeError, match='setup'):
        opt.add_hook(optimizer_hooks.Lasso(0.1))
    opt.setup(Two())
    opt.add_hook(optimizer_hooks.Lasso(0.1))
    with pytest.raises(KeyError, match='Lasso'):
        opt.add_hook(optimizer_hooks.Lasso(0.1))
    with pytest.raises(TypeError, match='must be callable'):
        opt.add_hook(3)
    with pytest.raises(ValueError, match='timing'):
        opt.add_hook(optimizer_hooks.Lasso(0.1), name='x', timing='later')
    with pytest.raises(ValueError, match='timing'):
        opt.call_hooks('later')
    with pytest.raises(KeyError):
        opt.remove_hook('x')
    opt.remove_hook('Lasso')


def test_new_epoch_and_auto():
    opt = optimizers.SGD().setup(Two())
    with pytest.raises(RuntimeError, match='use_auto_new_epoch'):
        opt.new_epoch(auto=True)
    opt.new_epoch()
    assert opt.epoch == 1
    opt.use_auto_new_epoch = True
    with pytest.raises(RuntimeError, match='auto_new_epoch=False'):
        opt.new_epoch()
    opt.new_epoch(auto=True)
    assert opt.epoch == 2


def test_make_deprecation_message():
    assert optimizer.make_deprecation_message('Lasso') == (
        'chainer.optimizer.Lasso is deprecated from v4. Use '
        'chainer.optimizer_hooks.Lasso instead.')


@pytest.mark.parametrize('name, args', [
    ('GradientClipping', (1.0,)), ('GradientHardClipping', (-1.0, 1.0)),
    ('GradientNoise', (0.1,)), ('Lasso', (0.1,)), ('WeightDecay', (0.1,))])
def test_hooks_under_their_old_names_warn(name, args):
    old, new = getattr(optimizer, name), getattr(optimizer_hooks, name)
    assert old is not new and issubclass(old, new)
    with pytest.warns(DeprecationWarning) as record:
        hook = old(*args)
    assert str(record[0].message) == optimizer.make_deprecation_message(
        name)
    assert isinstance(hook, new) and hook.name == name
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        new(*args)


def test_hyperparameter_proxy_takes_attr_name():
    proxy = optimizer.HyperparameterProxy(attr_name='lr')
    assert 'lr' in proxy.__doc__
    assert optimizers.SGD.lr.__doc__ == proxy.__doc__
