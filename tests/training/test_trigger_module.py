"""chainer.training.trigger: Chainer's older home of IntervalTrigger and
get_trigger, the same objects as in triggers and util."""
from chainer_core import training
from chainer_core.training import trigger


def test_same_objects():
    assert training.trigger is trigger
    assert trigger.IntervalTrigger is training.triggers.IntervalTrigger
    assert trigger.get_trigger is training.util.get_trigger


def test_get_trigger():
    t = trigger.get_trigger((3, 'iteration'))
    assert isinstance(t, trigger.IntervalTrigger)
    assert (t.period, t.unit) == (3, 'iteration')
    assert trigger.get_trigger(None)(object()) is False
