"""Updaters (Chainer's ``chainer.training.updaters``)."""
from chainer_core.training.updaters import (  # NOQA
    multiprocess_parallel_updater)
from chainer_core.training.updaters.multiprocess_parallel_updater import \
    MultiprocessParallelUpdater  # NOQA
from chainer_core.training.updaters.parallel_updater import (  # NOQA
    ParallelUpdater)
from chainer_core.training.updaters.standard_updater import (  # NOQA
    StandardUpdater)
