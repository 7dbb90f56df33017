"""Triggers (Chainer's ``chainer.training.triggers``)."""
from chainer_core.training.triggers.interval_trigger import (  # NOQA
    IntervalTrigger, get_trigger)
