"""Extensions: callables the trainer runs after updates, on a trigger."""
PRIORITY_WRITER = 300
PRIORITY_EDITOR = 200
PRIORITY_READER = 100
PRIORITY_SNAPSHOT = -100


class Extension:
    """Base of trainer extensions.

    Attributes:
        trigger: when to run (a tuple ``(period, unit)`` or a callable).
        priority (int): order among extensions run at one iteration
            (writers first, then editors, then readers, snapshots last).
        name (str): the name it is registered under (default_name if None).
    """

    trigger = 1, 'iteration'
    priority = PRIORITY_READER
    name = None

    @property
    def default_name(self):
        return type(self).__name__

    def __call__(self, trainer):
        raise NotImplementedError(
            '{} does not implement __call__'.format(type(self).__name__))

    def finalize(self):
        """Called once when training ends (also after an error)."""

    def initialize(self, trainer):
        """Called before the first iteration (also when resuming)."""

    def on_error(self, trainer, exc, tb):
        """Called when the training loop raises."""

    def serialize(self, serializer):
        """Save or load the extension's state."""


def make_extension(trigger=None, default_name=None, priority=None,
                   finalizer=None, initializer=None, on_error=None, **kwargs):
    """Decorator giving a function the attributes of an extension."""
    if kwargs:
        raise TypeError('make_extension: unexpected arguments {}'.format(
            sorted(kwargs)))
    if trigger is None:
        trigger = Extension.trigger
    if priority is None:
        priority = Extension.priority

    def decorator(ext):
        ext.trigger = trigger
        ext.default_name = default_name or ext.__name__
        ext.priority = priority
        ext.finalize = finalizer
        ext.initialize = initializer
        ext.on_error = on_error
        return ext

    return decorator
