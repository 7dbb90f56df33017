"""get_trainer_with_mock_updater: a trainer whose updater only counts."""
from chainer_core import training


class _MockUpdater(training.Updater):
    """Counts iterations; an epoch is ``iter_per_epoch`` iterations."""

    def __init__(self, iter_per_epoch, optimizers):
        self.iteration = 0
        self.iter_per_epoch = iter_per_epoch
        self._optimizers = dict(optimizers or {})

    @property
    def epoch(self):
        return self.iteration // self.iter_per_epoch

    @property
    def epoch_detail(self):
        return self.iteration / self.iter_per_epoch

    @property
    def previous_epoch_detail(self):
        if self.iteration == 0:
            return None
        return (self.iteration - 1) / self.iter_per_epoch

    @property
    def is_new_epoch(self):
        return self.iteration > 0 and \
            self.iteration % self.iter_per_epoch == 0

    def update(self):
        self.iteration += 1

    def get_optimizer(self, name):
        return self._optimizers[name]

    def get_all_optimizers(self):
        return dict(self._optimizers)

    def serialize(self, serializer):
        self.iteration = int(serializer('iteration', self.iteration))


def get_trainer_with_mock_updater(stop_trigger=(10, 'iteration'),
                                  iter_per_epoch=10, extensions=None,
                                  optimizers=None, out='result'):
    """A :class:`~chainer_core.training.Trainer` whose updater does nothing
    but count iterations (``iter_per_epoch`` per epoch), for testing
    triggers and extensions.

    Args:
        stop_trigger: the trainer's stop trigger.
        iter_per_epoch (int): iterations per epoch.
        extensions (list): extensions to add.
        optimizers (dict): what ``updater.get_optimizer(name)`` returns.
        out (str): the trainer's output folder.
    """
    updater = _MockUpdater(iter_per_epoch, optimizers)
    return training.Trainer(updater, stop_trigger, out=out,
                            extensions=extensions)
