"""The extensions shifting an optimizer attribute: values at each call,
initial values, targets, and exact resumption."""
import math

import numpy
import pytest

import chainer_core as chainer
from chainer_core.serializers import npz
from chainer_core.testing import get_trainer_with_mock_updater
from chainer_core.training import extensions

from ._util import Regressor


def _optimizer(lr=0.1):
    return chainer.optimizers.MomentumSGD(lr=lr).setup(Regressor())


def _values(make_extension, n, lr=0.1, attr='lr', resume_at=None,
            tmp_path=None):
    """The attribute after initialize and after each of n calls (with
    ``resume_at``: saved there and continued by a fresh extension)."""
    optimizer = _optimizer(lr)
    trainer = get_trainer_with_mock_updater(
        optimizers={'main': optimizer})
    ext = make_extension()
    ext.initialize(trainer)
    values = [getattr(optimizer, attr)]
    for i in range(1, n + 1):
        trainer.updater.update()
        ext(trainer)
        values.append(getattr(optimizer, attr))
        if i == resume_at:
            path = str(tmp_path / 'ext.npz')
            npz.save_npz(path, ext)
            optimizer = _optimizer(lr)
            trainer = get_trainer_with_mock_updater(
                optimizers={'main': optimizer})
            trainer.updater.iteration = i
            ext = make_extension()
            npz.load_npz(path, ext)
            ext.initialize(trainer)
    return values


def _check(make_extension, expected, tmp_path, **kwargs):
    n = len(expected) - 1
    values = _values(make_extension, n, **kwargs)
    assert values == pytest.approx(expected, rel=1e-12, abs=1e-15)
    for k in range(1, n):
        assert _values(make_extension, n, resume_at=k, tmp_path=tmp_path,
                       **kwargs) == values, 'resumed at {}'.format(k)


def test_exponential_shift(tmp_path):
    _check(lambda: extensions.ExponentialShift('lr', 0.5),
           [0.1 * 0.5 ** t for t in range(6)], tmp_path)
    _check(lambda: extensions.ExponentialShift('lr', 0.5, init=0.2,
                                               target=0.04),
           [0.2, 0.1, 0.05, 0.04, 0.04], tmp_path)
    _check(lambda: extensions.ExponentialShift('lr', 2, target=0.5),
           [0.1, 0.2, 0.4, 0.5, 0.5], tmp_path)
    with pytest.raises(ValueError, match='rate'):
        extensions.ExponentialShift('lr', -1)


def test_linear_shift(tmp_path):
    _check(lambda: extensions.LinearShift('lr', (1.0, 2.0), (2, 6)),
           [1.0, 1.0, 1.0, 1.25, 1.5, 1.75, 2.0, 2.0], tmp_path)
    with pytest.raises(ValueError, match='time_range'):
        extensions.LinearShift('lr', (1, 2), (3, 3))


def test_step_shift(tmp_path):
    _check(lambda: extensions.StepShift('lr', 0.1, 2),
           [0.1, 0.1, 0.01, 0.01, 0.001, 0.001], tmp_path)
    _check(lambda: extensions.StepShift('lr', 0.5, 1, init=1.0, target=0.3),
           [1.0, 0.5, 0.3, 0.3], tmp_path)
    with pytest.raises(ValueError, match='step'):
        extensions.StepShift('lr', 0.1, 0)


def test_multistep_shift(tmp_path):
    _check(lambda: extensions.MultistepShift('lr', 0.1, [2, 4], 1.0),
           [1.0, 1.0, 0.1, 0.1, 0.01, 0.01, 0.01], tmp_path)
    _check(lambda: extensions.MultistepShift('lr', 0.5, [1], None),
           [0.1, 0.05, 0.05], tmp_path)


def test_polynomial_shift(tmp_path):
    _check(lambda: extensions.PolynomialShift('lr', 2, 4),
           [0.1 * (1 - t / 4) ** 2 for t in range(4)] + [0., 0.], tmp_path)
    _check(lambda: extensions.PolynomialShift('lr', 1, 4, target=0.04),
           [0.1, 0.075, 0.05, 0.04, 0.04], tmp_path)
    with pytest.raises(ValueError, match='max_count'):
        extensions.PolynomialShift('lr', 1, 0)


def test_warmup_shift(tmp_path):
    _check(lambda: extensions.WarmupShift('lr', 0.0, 4),
           [0.0, 0.025, 0.05, 0.075, 0.1, 0.1, 0.1], tmp_path)
    _check(lambda: extensions.WarmupShift('lr', 0.01, 2, init=0.05),
           [0.01, 0.03, 0.05, 0.05], tmp_path)
    with pytest.raises(ValueError, match='warmup_iter'):
        extensions.WarmupShift('lr', 0, 0)


def test_inverse_shift(tmp_path):
    _check(lambda: extensions.InverseShift('lr', 0.5, 2),
           [0.1 * (1 + 0.5 * t) ** -2 for t in range(5)], tmp_path)
    _check(lambda: extensions.InverseShift('lr', 1, 1, target=0.03),
           [0.1, 0.05, 0.1 / 3, 0.03, 0.03], tmp_path)
    with pytest.raises(ValueError, match='gamma'):
        extensions.InverseShift('lr', -1, 1)


def test_other_attribute_and_optimizer(tmp_path):
    adam = chainer.optimizers.Adam(alpha=0.01).setup(Regressor())
    trainer = get_trainer_with_mock_updater((3, 'iteration'),
                                            out=str(tmp_path))
    trainer.extend(extensions.ExponentialShift('alpha', 0.1,
                                               optimizer=adam))
    trainer.run()
    assert adam.alpha == pytest.approx(1e-5)
    assert math.isclose(adam.hyperparam.alpha, 1e-5)


def test_shift_in_a_training_run_changes_the_updates(tmp_path):
    values = []
    optimizer = _optimizer(1.0)
    trainer = get_trainer_with_mock_updater((4, 'iteration'),
                                            optimizers={'main': optimizer},
                                            out=str(tmp_path))
    trainer.extend(extensions.StepShift('lr', 0.5, 2))
    trainer.extend(lambda t: values.append(optimizer.lr), name='look',
                   priority=0)
    trainer.run()
    assert values == [1.0, 0.5, 0.5, 0.25]
    numpy.testing.assert_equal(optimizer.hyperparam.lr, 0.25)
