"""Training loop (Chainer's ``chainer.training``)."""
from chainer_core import _lazy

__getattr__, __dir__ = _lazy(__name__, {
    '.extension': (
        'Extension', 'make_extension', 'PRIORITY_EDITOR', 'PRIORITY_READER',
        'PRIORITY_SNAPSHOT', 'PRIORITY_WRITER'),
    '.trainer': ('Trainer',),
    '.triggers': ('IntervalTrigger',),
    '.updater': ('Updater',),
    '.updaters': ('ParallelUpdater', 'StandardUpdater'),
    '.util': ('get_trigger',),
}, submodules=True)
