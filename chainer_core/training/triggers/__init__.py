"""Triggers (Chainer's ``chainer.training.triggers``)."""
from chainer_core.training.triggers.interval_trigger import (  # NOQA
    IntervalTrigger)
from chainer_core.training.util import get_trigger  # NOQA
from chainer_core.training.triggers.manual_schedule_trigger import (  # NOQA
    ManualScheduleTrigger)
from chainer_core.training.triggers.minmax_value_trigger import (  # NOQA
    BestValueTrigger, MaxValueTrigger, MinValueTrigger)
from chainer_core.training.triggers.early_stopping_trigger import (  # NOQA
    EarlyStoppingTrigger)
from chainer_core.training.triggers.once_trigger import OnceTrigger  # NOQA
from chainer_core.training.triggers.time_trigger import TimeTrigger  # NOQA
