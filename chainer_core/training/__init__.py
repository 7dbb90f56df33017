"""Training loop (Chainer's ``chainer.training``)."""
from chainer_core.training import extensions  # NOQA
from chainer_core.training import trigger  # NOQA
from chainer_core.training import triggers  # NOQA
from chainer_core.training import updaters  # NOQA
from chainer_core.training import util  # NOQA
from chainer_core.training.extension import (  # NOQA
    PRIORITY_EDITOR, PRIORITY_READER, PRIORITY_SNAPSHOT, PRIORITY_WRITER,
    Extension, make_extension)
from chainer_core.training.trainer import Trainer  # NOQA
from chainer_core.training.triggers import IntervalTrigger  # NOQA
from chainer_core.training.updater import Updater  # NOQA
from chainer_core.training.updaters import ParallelUpdater  # NOQA
from chainer_core.training.updaters import StandardUpdater  # NOQA
from chainer_core.training.util import get_trigger  # NOQA
