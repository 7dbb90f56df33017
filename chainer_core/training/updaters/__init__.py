"""Updaters (Chainer's ``chainer.training.updaters``)."""
from chainer_core import _lazy

# Imported on first use: MultiprocessParallelUpdater imports multiprocessing.
__getattr__, __dir__ = _lazy(__name__, {
    '.multiprocess_parallel_updater': ('MultiprocessParallelUpdater',),
    '.parallel_updater': ('ParallelUpdater',),
    '.standard_updater': ('StandardUpdater',),
}, submodules=True)
