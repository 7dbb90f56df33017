"""The Trainer loop: stop trigger, extension order, names, triggers,
initialize/finalize/on_error, call_before_training, elapsed time."""
import time

import pytest

from chainer_core import training
from chainer_core.serializers import npz
from chainer_core.testing import get_trainer_with_mock_updater
from chainer_core.training import extension

from ._util import make_trainer


def test_runs_until_the_stop_trigger(tmp_path):
    trainer = get_trainer_with_mock_updater((7, 'iteration'),
                                            out=str(tmp_path))
    trainer.run()
    assert trainer.updater.iteration == 7
    trainer = get_trainer_with_mock_updater((2, 'epoch'), iter_per_epoch=4,
                                            out=str(tmp_path))
    trainer.run()
    assert trainer.updater.iteration == 8


def test_cannot_run_twice(tmp_path):
    trainer = get_trainer_with_mock_updater((1, 'iteration'),
                                            out=str(tmp_path))
    trainer.run()
    with pytest.raises(RuntimeError, match='twice'):
        trainer.run()


def test_creates_the_output_folder(tmp_path):
    out = tmp_path / 'a' / 'b'
    get_trainer_with_mock_updater((1, 'iteration'), out=str(out)).run()
    assert out.is_dir()


def test_extension_triggers(tmp_path):
    calls = {'every': [], 'third': [], 'epoch': []}
    trainer = get_trainer_with_mock_updater((10, 'iteration'),
                                            iter_per_epoch=4,
                                            out=str(tmp_path))

    def recorder(key):
        return lambda t: calls[key].append(t.updater.iteration)

    trainer.extend(recorder('every'), name='every')
    trainer.extend(recorder('third'), name='third', trigger=(3, 'iteration'))
    trainer.extend(recorder('epoch'), name='epoch', trigger=(1, 'epoch'))
    trainer.run()
    assert calls['every'] == list(range(1, 11))
    assert calls['third'] == [3, 6, 9]
    assert calls['epoch'] == [4, 8]


def test_priorities_order_and_registration_order(tmp_path):
    order = []
    trainer = get_trainer_with_mock_updater((1, 'iteration'),
                                            out=str(tmp_path))
    for name, priority in [('reader1', extension.PRIORITY_READER),
                           ('writer', extension.PRIORITY_WRITER),
                           ('snapshot', extension.PRIORITY_SNAPSHOT),
                           ('reader2', extension.PRIORITY_READER),
                           ('editor', extension.PRIORITY_EDITOR)]:
        trainer.extend(lambda t, n=name: order.append(n), name=name,
                       priority=priority)
    trainer.run()
    assert order == ['writer', 'editor', 'reader1', 'reader2', 'snapshot']


def test_extension_class_attributes_are_defaults(tmp_path):
    order = []

    class Writer(training.Extension):
        priority = training.PRIORITY_WRITER
        trigger = 2, 'iteration'

        def __call__(self, trainer):
            order.append(('w', trainer.updater.iteration))

    @training.make_extension(trigger=(3, 'iteration'),
                             priority=training.PRIORITY_READER)
    def reader(trainer):
        order.append(('r', trainer.updater.iteration))

    trainer = get_trainer_with_mock_updater((6, 'iteration'),
                                            out=str(tmp_path))
    trainer.extend(reader)
    trainer.extend(Writer())
    trainer.run()
    assert order == [('w', 2), ('r', 3), ('w', 4), ('w', 6), ('r', 6)]


def test_names():
    trainer = get_trainer_with_mock_updater()

    class MyExtension(training.Extension):
        def __call__(self, trainer):
            pass

    a, b, c = MyExtension(), MyExtension(), MyExtension()
    trainer.extend(a)
    trainer.extend(b)
    trainer.extend(c, name='custom')

    def func(trainer):
        pass

    trainer.extend(func)
    assert (a.name, b.name, c.name) == ('MyExtension', 'MyExtension_1',
                                        'custom')
    assert trainer.get_extension('MyExtension_1') is b
    assert trainer.get_extension('func') is func
    with pytest.raises(ValueError, match='not found'):
        trainer.get_extension('missing')
    with pytest.raises(ValueError, match='training'):
        trainer.extend(MyExtension(), name='training')

    @training.make_extension(default_name='named')
    def decorated(trainer):
        pass

    trainer.extend(decorated)
    assert trainer.get_extension('named') is decorated


def test_make_extension_rejects_unknown_arguments():
    with pytest.raises(TypeError, match='unexpected'):
        training.make_extension(invoke_before_training=True)


class _Lifecycle(training.Extension):
    def __init__(self, log):
        self.log = log

    def initialize(self, trainer):
        self.log.append(('initialize', trainer.updater.iteration))

    def __call__(self, trainer):
        self.log.append(('call', trainer.updater.iteration))

    def on_error(self, trainer, exc, tb):
        self.log.append(('error', str(exc)))

    def finalize(self):
        self.log.append(('finalize',))


def test_initialize_and_finalize(tmp_path):
    log = []
    trainer = get_trainer_with_mock_updater((2, 'iteration'),
                                            out=str(tmp_path))
    trainer.extend(_Lifecycle(log))
    trainer.run()
    assert log == [('initialize', 0), ('call', 1), ('call', 2),
                   ('finalize',)]


def test_call_before_training(tmp_path):
    log = []
    trainer = get_trainer_with_mock_updater((2, 'iteration'),
                                            out=str(tmp_path))
    trainer.extend(_Lifecycle(log), trigger=(2, 'iteration'),
                   call_before_training=True)
    trainer.run()
    assert log == [('initialize', 0), ('call', 0), ('call', 2),
                   ('finalize',)]


def test_error_runs_handlers_and_finalizers_then_raises(tmp_path, capsys):
    log = []

    def failing(trainer):
        if trainer.updater.iteration == 2:
            raise ValueError('boom')

    def bad_handler_ext(trainer):
        pass

    def bad_handler(trainer, exc, tb):
        raise RuntimeError('handler failed')

    bad_handler_ext.on_error = bad_handler
    trainer = get_trainer_with_mock_updater((5, 'iteration'),
                                            out=str(tmp_path))
    trainer.extend(failing, priority=training.PRIORITY_WRITER)
    trainer.extend(bad_handler_ext)
    trainer.extend(_Lifecycle(log))
    with pytest.raises(ValueError, match='boom'):
        trainer.run()
    assert log == [('initialize', 0), ('call', 1), ('error', 'boom'),
                   ('finalize',)]
    err = capsys.readouterr().err
    assert 'Exception in the main training loop: boom' in err
    assert 'handler failed' in err and 'bad_handler_ext' in err


def test_error_message_can_be_silenced(tmp_path, capsys):
    def failing(trainer):
        raise ValueError('quiet')

    trainer = get_trainer_with_mock_updater(out=str(tmp_path))
    trainer.extend(failing)
    with pytest.raises(ValueError):
        trainer.run(show_loop_exception_msg=False)
    assert 'quiet' not in capsys.readouterr().err


def test_observation_holds_reports_of_the_iteration(tmp_path):
    seen = []
    trainer = make_trainer(tmp_path, stop=(2, 'iteration'))
    trainer.extend(lambda t: seen.append(sorted(t.observation)),
                   name='look')
    trainer.run()
    assert seen == [['main/loss'], ['main/loss']]


def test_elapsed_time(tmp_path):
    trainer = get_trainer_with_mock_updater((3, 'iteration'),
                                            out=str(tmp_path))
    with pytest.raises(RuntimeError, match='not started'):
        trainer.elapsed_time
    times = []

    def record(t):
        times.append(t.elapsed_time)
        time.sleep(0.01)

    trainer.extend(record)
    trainer.run()
    assert times == sorted(times)
    assert trainer.elapsed_time >= times[-1] >= 0.02


def test_saving_does_not_change_elapsed_time(tmp_path):
    # Taking a snapshot must not add the time so far to the time counted
    # from the start a second time.
    trainer = get_trainer_with_mock_updater((3, 'iteration'),
                                            out=str(tmp_path))
    times = []

    def save_and_record(t):
        time.sleep(0.05)
        before = t.elapsed_time
        npz.save_npz(str(tmp_path / 's.npz'), t)
        times.append((before, t.elapsed_time))

    trainer.extend(save_and_record)
    trainer.run()
    for before, after in times:
        assert after - before < 0.04
    assert trainer.elapsed_time < 0.5


def test_elapsed_time_continues_after_loading(tmp_path):
    first = get_trainer_with_mock_updater((2, 'iteration'),
                                          out=str(tmp_path))
    first.extend(lambda t: time.sleep(0.05), name='slow')
    first.run()
    npz.save_npz(str(tmp_path / 's.npz'), first)
    second = get_trainer_with_mock_updater((3, 'iteration'),
                                           out=str(tmp_path))
    npz.load_npz(str(tmp_path / 's.npz'), second)
    second.run()
    assert second.updater.iteration == 3
    assert second.elapsed_time >= first.elapsed_time >= 0.1


def test_resuming_a_finished_run_does_not_train_more(tmp_path):
    first = get_trainer_with_mock_updater((2, 'epoch'), iter_per_epoch=3,
                                          out=str(tmp_path))
    first.run()
    npz.save_npz(str(tmp_path / 's.npz'), first)
    again = get_trainer_with_mock_updater((2, 'epoch'), iter_per_epoch=3,
                                          out=str(tmp_path))
    npz.load_npz(str(tmp_path / 's.npz'), again)
    again.run()
    assert again.updater.iteration == 6
    longer = get_trainer_with_mock_updater((3, 'epoch'), iter_per_epoch=3,
                                           out=str(tmp_path))
    npz.load_npz(str(tmp_path / 's.npz'), longer)
    longer.run()
    assert longer.updater.iteration == 9


def test_get_trigger():
    trigger = training.get_trigger((5, 'iteration'))
    assert isinstance(trigger, training.triggers.IntervalTrigger)
    assert trigger.get_training_length() == (5, 'iteration')

    def f(trainer):
        return True

    assert training.get_trigger(f) is f
    assert training.get_trigger(None)(None) is False
    assert training.util.get_trigger is training.get_trigger
    with pytest.raises(TypeError, match='trigger'):
        training.get_trigger(5)
