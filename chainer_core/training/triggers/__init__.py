"""Triggers (Chainer's ``chainer.training.triggers``)."""
from chainer_core import _lazy

__getattr__, __dir__ = _lazy(__name__, {
    '.early_stopping_trigger': ('EarlyStoppingTrigger',),
    '.interval_trigger': ('IntervalTrigger',),
    '.manual_schedule_trigger': ('ManualScheduleTrigger',),
    '.minmax_value_trigger': (
        'BestValueTrigger', 'MaxValueTrigger', 'MinValueTrigger'),
    '.once_trigger': ('OnceTrigger',),
    '.time_trigger': ('TimeTrigger',),
    'chainer_core.training.util': ('get_trigger',),
}, submodules=True)
