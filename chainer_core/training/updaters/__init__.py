"""Updaters (Chainer's ``chainer.training.updaters``)."""
from chainer_core.training.updaters.parallel_updater import (  # NOQA
    ParallelUpdater)
from chainer_core.training.updaters.standard_updater import (  # NOQA
    StandardUpdater)
