"""Chainer's older home of trigger helpers (``chainer.training.trigger``),
kept for code that imports them from here.

:class:`IntervalTrigger` lives in :mod:`chainer_core.training.triggers`
and :func:`get_trigger` in :mod:`chainer_core.training.util`; both are the
same objects here.

Example:
    >>> from chainer_core.training import trigger
    >>> trigger.get_trigger((2, 'epoch')).period
    2
"""
from chainer_core.training.triggers.interval_trigger import (  # NOQA
    IntervalTrigger)
from chainer_core.training.util import get_trigger  # NOQA
