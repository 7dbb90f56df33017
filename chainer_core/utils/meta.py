"""Final methods (Chainer's ``chainer.utils.meta``).

A method decorated with :func:`final` in a class derived from
``enable_final()`` may not be overridden in subclasses: defining such a
subclass raises (or warns, as chosen).
"""
import warnings

_ACTION = '__override_action'


class _FinalChecker(type):

    def __init__(cls, name, bases, namespace, **kwargs):
        super().__init__(name, bases, namespace, **kwargs)
        for attr in namespace:
            for base in cls.__mro__[1:]:
                if attr not in vars(base):
                    continue
                action = getattr(vars(base)[attr], _ACTION, None)
                if action is not None:
                    _react(action, cls, attr)
                break


def _react(action, cls, attr):
    if issubclass(action, Warning):
        warnings.warn("Overriding method '{}' (final in a base of {})."
                      .format(attr, cls.__name__), action, stacklevel=3)
    else:
        raise action("method '{}' is final; {} may not override it."
                     .format(attr, cls.__name__))


def enable_final(base=(), meta_base=()):
    """A base class whose subclasses may not override :func:`final`
    methods.

    Args:
        base (type or tuple of types): bases of the returned class.
        meta_base (type or tuple of types): metaclasses to combine with
            the checking metaclass, when subclasses have their own (this
            avoids a metaclass conflict).

    Returns:
        type: the class to derive from.

    Example:
        >>> class Base(enable_final()):
        ...     @final
        ...     def run(self):
        ...         pass
    """
    if not isinstance(base, tuple):
        base = (base,)
    if not isinstance(meta_base, tuple):
        meta_base = (meta_base,)
    metaclass = type('base_metaclass', (_FinalChecker,) + meta_base, {})
    return metaclass('base_class', base or (object,), {})


def final(*args, **kwargs):
    """Declare a method final: ``@final`` or ``@final(action=...)``.

    Args:
        action (type): what overriding the method does: an exception class
            is raised, a warning class is warned (``TypeError`` by default).

    Returns:
        The method (marked), or a decorator when called with ``action``.
    """
    action = kwargs.pop('action', TypeError)
    if kwargs or len(args) > 1 or (args and not callable(args[0])):
        raise TypeError(
            'final: use @final or @final(action=ExceptionOrWarningClass); '
            'got args={!r} kwargs={!r}'.format(args, kwargs))
    if not (isinstance(action, type) and issubclass(action, Exception)):
        raise TypeError('final: action must be an exception or warning '
                        'class, not {!r}'.format(action))

    def mark(method):
        setattr(method, _ACTION, action)
        return method

    if args:
        return mark(args[0])
    return mark
