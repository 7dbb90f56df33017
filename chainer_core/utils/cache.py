"""Caching helpers (Chainer's ``chainer.utils.cache``)."""
from chainer_core import configuration


class cached_property:
    """A property computed once per instance and per backprop mode.

    The value is cached separately with backprop enabled and disabled, so
    that a cached Variable built with a graph is never handed out under
    ``no_backprop_mode`` (or the reverse).

    Args:
        func: the getter.

    Example:
        >>> class Model:
        ...     @cached_property
        ...     def table(self):
        ...         return numpy.arange(3)
    """

    def __init__(self, func):
        self.func = func
        self.__doc__ = func.__doc__
        self.name = func.__name__

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        cache = obj.__dict__.setdefault(self.name, {})
        key = bool(configuration.config.enable_backprop)
        if key not in cache:
            cache[key] = self.func(obj)
        return cache[key]

    # A data descriptor, so that the per-mode cache stored in the
    # instance's ``__dict__`` under the same name does not shadow it.
    def __set__(self, obj, value):
        raise AttributeError('{} is a cached property and cannot be set'
                             .format(self.name))
