"""Triggers: when they fire, and exact resumption from a snapshot taken at
any iteration."""
import warnings

import numpy
import pytest

from chainer_core.serializers import npz
from chainer_core.testing import get_trainer_with_mock_updater
from chainer_core.training import triggers


def _firings(make_trigger, n_iterations, iter_per_epoch=5, observe=None,
             resume_at=None, tmp_path=None):
    """The iterations at which the trigger fires when called after each of
    ``n_iterations`` iterations; with ``resume_at``, the trigger (and the
    updater) are saved at that iteration and a fresh pair continues."""
    trainer = get_trainer_with_mock_updater((n_iterations, 'iteration'),
                                            iter_per_epoch=iter_per_epoch)
    trigger = make_trigger()
    fired = []
    for i in range(1, n_iterations + 1):
        trainer.updater.update()
        trainer.observation = observe(i) if observe else {}
        if trigger(trainer):
            fired.append(i)
        if i == resume_at:
            path = str(tmp_path / 'trigger.npz')
            npz.save_npz(path, trigger)
            trigger = make_trigger()
            npz.load_npz(path, trigger)
    return fired


def _check_resume(make_trigger, n, tmp_path, **kwargs):
    expected = _firings(make_trigger, n, **kwargs)
    for k in range(1, n):
        assert _firings(make_trigger, n, resume_at=k, tmp_path=tmp_path,
                        **kwargs) == expected, 'resumed at {}'.format(k)
    return expected


def test_interval_trigger(tmp_path):
    assert _check_resume(lambda: triggers.IntervalTrigger(3, 'iteration'),
                         10, tmp_path) == [3, 6, 9]
    assert _check_resume(lambda: triggers.IntervalTrigger(1, 'epoch'), 12,
                         tmp_path, iter_per_epoch=4) == [4, 8, 12]
    # Half epochs of 5 iterations: epoch_detail crosses 0.5, 1.0, ...
    assert _firings(lambda: triggers.IntervalTrigger(0.5, 'epoch'), 10,
                    iter_per_epoch=5) == [3, 5, 8, 10]
    trigger = triggers.IntervalTrigger(2, 'epoch')
    assert trigger.get_training_length() == (2, 'epoch')
    assert str(trigger) == "IntervalTrigger(2, 'epoch')"


def test_interval_trigger_rejects_bad_arguments():
    with pytest.raises(ValueError, match='unit'):
        triggers.IntervalTrigger(1, 'epochs')
    with pytest.raises(ValueError, match='period'):
        triggers.IntervalTrigger(0, 'iteration')


def test_interval_trigger_without_state_in_the_snapshot(tmp_path):
    path = str(tmp_path / 'empty.npz')
    numpy.savez(path, unrelated=numpy.zeros(1))
    trigger = triggers.IntervalTrigger(2, 'iteration')
    with pytest.warns(UserWarning, match='lacks its state'):
        npz.load_npz(path, trigger)
    trainer = get_trainer_with_mock_updater()
    trainer.updater.iteration = 4
    assert trigger(trainer)
    trainer.updater.iteration = 5
    assert not trigger(trainer)


def test_manual_schedule_trigger(tmp_path):
    make = lambda: triggers.ManualScheduleTrigger([2, 5, 7], 'iteration')  # NOQA
    assert _check_resume(make, 10, tmp_path) == [2, 5, 7]
    make = lambda: triggers.ManualScheduleTrigger([0.5, 1.5], 'epoch')  # NOQA
    assert _check_resume(make, 10, tmp_path, iter_per_epoch=4) == [2, 6]
    assert _firings(lambda: triggers.ManualScheduleTrigger(3, 'iteration'),
                    5) == [3]


def test_manual_schedule_trigger_finished():
    trainer = get_trainer_with_mock_updater()
    trigger = triggers.ManualScheduleTrigger([1, 3], 'iteration')
    for i, finished in [(1, False), (2, False), (3, True), (4, True)]:
        trainer.updater.iteration = i
        trigger(trainer)
        assert trigger.finished is finished
    with pytest.raises(ValueError, match='unit'):
        triggers.ManualScheduleTrigger([1], 'epochs')


def test_finished_trigger_skips_initialize(tmp_path):
    calls = []

    class Ext:
        def initialize(self, trainer):
            calls.append('init')

        def __call__(self, trainer):
            calls.append(trainer.updater.iteration)

    first = get_trainer_with_mock_updater((4, 'iteration'),
                                          out=str(tmp_path))
    first.extend(Ext(), name='ext',
                 trigger=triggers.ManualScheduleTrigger(2, 'iteration'))
    first.run()
    assert calls == ['init', 2]
    npz.save_npz(str(tmp_path / 's.npz'), first)
    calls.clear()
    second = get_trainer_with_mock_updater((6, 'iteration'),
                                           out=str(tmp_path))
    second.extend(Ext(), name='ext',
                  trigger=triggers.ManualScheduleTrigger(2, 'iteration'))
    npz.load_npz(str(tmp_path / 's.npz'), second)
    second.run()
    assert calls == []


def _values(sequence, key='v'):
    return lambda i: {key: sequence[(i - 1) % len(sequence)]}


def test_max_and_min_value_triggers(tmp_path):
    # One value per iteration; checked every 2 iterations on the mean.
    values = [1., 3., 5., 1., 2., 2., 8., 0., 1., 1.]  # means 2, 3, 2, 4, 1
    make = lambda: triggers.MaxValueTrigger('v', (2, 'iteration'))  # NOQA
    assert _check_resume(make, 10, tmp_path,
                         observe=_values(values)) == [2, 4, 8]
    make = lambda: triggers.MinValueTrigger('v', (2, 'iteration'))  # NOQA
    assert _check_resume(make, 10, tmp_path,
                         observe=_values(values)) == [2, 10]
    trigger = triggers.MaxValueTrigger('v', (1, 'iteration'))
    trainer = get_trainer_with_mock_updater()
    trainer.updater.iteration = 1
    trainer.observation = {'w': 1.}
    with pytest.raises(KeyError, match="'v' was not reported"):
        trigger(trainer)


def test_best_value_trigger_custom_compare():
    trigger = triggers.BestValueTrigger(
        'v', lambda best, new: abs(new) < abs(best), (1, 'iteration'))
    trainer = get_trainer_with_mock_updater()
    fired = []
    for i, v in enumerate([-3., 2., -2.5, -1.], 1):
        trainer.updater.iteration = i
        trainer.observation = {'v': v}
        fired.append(trigger(trainer))
    assert fired == [True, True, False, True]
    assert trigger.best_value == -1.


def test_early_stopping_trigger(tmp_path):
    # Loss per epoch of 2 iterations: improves, then stalls for 3 epochs.
    losses = [5., 5., 4., 4., 3., 3., 3.5, 3.5, 3.2, 3.2, 4., 4., 1., 1.]

    def make():
        return triggers.EarlyStoppingTrigger(
            check_trigger=(1, 'epoch'), monitor='main/loss', patience=3,
            max_trigger=(100, 'epoch'))

    assert _check_resume(make, 14, tmp_path, iter_per_epoch=2,
                         observe=_values(losses, 'main/loss'))[:1] == [12]


def test_early_stopping_trigger_as_stop_trigger(tmp_path):
    trainer = get_trainer_with_mock_updater(iter_per_epoch=2,
                                            out=str(tmp_path))
    trainer.stop_trigger = triggers.EarlyStoppingTrigger(
        monitor='validation/main/accuracy', patience=2,
        max_trigger=(50, 'epoch'))
    accuracies = iter([0.5, 0.5, 0.6, 0.6, 0.55, 0.55, 0.6, 0.6] * 10)

    def report(t):
        t.observation['validation/main/accuracy'] = next(accuracies)

    trainer.extend(report)
    trainer.run()
    # 'accuracy' in the key: greater is better; the best 0.6 at epoch 2 is
    # not beaten at epochs 3 and 4.
    assert trainer.updater.iteration == 8


def test_early_stopping_max_trigger_and_options(tmp_path):
    trainer = get_trainer_with_mock_updater(iter_per_epoch=2,
                                            out=str(tmp_path))
    trainer.stop_trigger = triggers.EarlyStoppingTrigger(
        monitor='main/loss', patience=5, max_trigger=(3, 'epoch'))
    losses = iter(range(100, 0, -1))
    trainer.extend(lambda t: t.observation.update(
        {'main/loss': float(next(losses))}), name='report')
    trainer.run()
    assert trainer.updater.iteration == 6
    assert trainer.stop_trigger.get_training_length() == (3, 'epoch')
    assert triggers.EarlyStoppingTrigger(patients=7).patience == 7
    with pytest.raises(TypeError, match='patients'):
        triggers.EarlyStoppingTrigger(patience=1, patients=2)
    with pytest.raises(ValueError, match='mode'):
        triggers.EarlyStoppingTrigger(mode='best')
    maximizing = triggers.EarlyStoppingTrigger(monitor='loss', mode='max')
    assert maximizing.best == float('-inf')


def test_early_stopping_warns_when_the_key_is_missing():
    trigger = triggers.EarlyStoppingTrigger(check_trigger=(1, 'iteration'))
    trainer = get_trainer_with_mock_updater()
    trainer.updater.iteration = 1
    trainer.observation = {}
    with pytest.warns(UserWarning, match='main/loss'):
        assert trigger(trainer) is False


def test_once_trigger(tmp_path):
    assert _check_resume(triggers.OnceTrigger, 5, tmp_path) == [1]
    assert _firings(lambda: triggers.OnceTrigger(call_on_resume=True), 5,
                    resume_at=3, tmp_path=tmp_path) == [1, 4]
    trigger = triggers.OnceTrigger()
    assert not trigger.finished
    trigger(None)
    assert trigger.finished


def test_time_trigger(tmp_path):
    class Clock:
        elapsed_time = 0.

    clock = Clock()
    trigger = triggers.TimeTrigger(1.5)
    fired = []
    for t in numpy.arange(0.5, 6.01, 0.5):
        clock.elapsed_time = t
        if trigger(clock):
            fired.append(t)
    assert fired == [2.0, 3.5, 5.0]
    path = str(tmp_path / 't.npz')
    npz.save_npz(path, trigger)
    resumed = triggers.TimeTrigger(1.5)
    npz.load_npz(path, resumed)
    clock.elapsed_time = 6.1
    assert resumed(clock)
    with pytest.raises(ValueError, match='period'):
        triggers.TimeTrigger(0)


def test_triggers_need_no_warnings_when_resumed(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        _check_resume(lambda: triggers.ManualScheduleTrigger(4, 'iteration'),
                      6, tmp_path)
