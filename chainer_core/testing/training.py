"""get_trainer_with_mock_updater: a trainer whose updater only counts."""
import unittest.mock

from chainer_core import training


def _mock_updater(iter_per_epoch, optimizers):
    """A :class:`unittest.mock.Mock` standing for an updater: ``update()``
    advances ``iteration`` by one and sets ``epoch``, ``epoch_detail``,
    ``previous_epoch_detail`` and ``is_new_epoch`` from it; every other
    method is a mock a test can configure or inspect."""
    updater = unittest.mock.Mock()
    updater.iteration = 0
    updater.epoch = 0
    updater.epoch_detail = 0
    updater.previous_epoch_detail = None
    updater.is_new_epoch = True

    def update():
        updater.previous_epoch_detail = updater.epoch_detail
        updater.iteration += 1
        updater.epoch = updater.iteration // iter_per_epoch
        updater.epoch_detail = updater.iteration / iter_per_epoch
        updater.is_new_epoch = updater.iteration % iter_per_epoch == 0

    def serialize(serializer):
        updater.iteration = int(serializer('iteration', updater.iteration))
        updater.epoch = updater.iteration // iter_per_epoch
        updater.epoch_detail = updater.iteration / iter_per_epoch

    updater.update = update
    updater.serialize = unittest.mock.Mock(side_effect=serialize)
    updater.get_all_optimizers.return_value = dict(optimizers or {})
    if optimizers is not None:
        updater.get_optimizer.side_effect = dict(optimizers).__getitem__
    return updater


def get_trainer_with_mock_updater(stop_trigger=(10, 'iteration'),
                                  iter_per_epoch=10, extensions=None,
                                  optimizers=None, out='result'):
    """A :class:`~chainer_core.training.Trainer` whose updater does nothing
    but count iterations (``iter_per_epoch`` per epoch), for testing
    triggers and extensions.

    The updater is a :class:`unittest.mock.Mock`: ``iteration``, ``epoch``,
    ``epoch_detail``, ``previous_epoch_detail`` and ``is_new_epoch`` are
    plain attributes that ``update()`` advances (a test may set them), and
    e.g. ``trainer.updater.get_optimizer.return_value`` sets what
    ``get_optimizer`` returns.

    Args:
        stop_trigger: the trainer's stop trigger.
        iter_per_epoch (int): iterations per epoch.
        extensions (list): extensions to add.
        optimizers (dict): what ``get_optimizer(name)`` and
            ``get_all_optimizers()`` return.
        out (str): the trainer's output folder.
    """
    updater = _mock_updater(iter_per_epoch, optimizers)
    return training.Trainer(updater, stop_trigger, out=out,
                            extensions=extensions)
