"""observe_value and observe_lr: put a value into each observation."""
from chainer_core.training import extension


def observe_value(observation_key, target_func):
    """An extension storing ``target_func(trainer)`` in the observation
    under ``observation_key`` (every epoch by default; a writer, so a
    LogReport of the same iteration sees it).

    Args:
        observation_key (str): the key.
        target_func: ``f(trainer)`` returning the value.
    """
    @extension.make_extension(trigger=(1, 'epoch'),
                              priority=extension.PRIORITY_WRITER)
    def _observe_value(trainer):
        trainer.observation[observation_key] = target_func(trainer)
    return _observe_value


def observe_lr(optimizer_name='main', observation_key='lr'):
    """:func:`observe_value` of an optimizer's learning rate (its ``lr``
    attribute, which Adam derives from ``alpha``)."""
    return observe_value(
        observation_key,
        lambda trainer: trainer.updater.get_optimizer(optimizer_name).lr)
