"""Keyword-argument parsing for functions that take ``**kwargs`` (Chainer's
``chainer.utils.argument``), with errors naming the calling function."""
import inspect


def _caller_name(depth):
    frame = inspect.currentframe()
    try:
        for _ in range(depth + 1):
            frame = frame.f_back
        return frame.f_code.co_name
    finally:
        del frame


def _unexpected(kwargs, caller):
    return TypeError('{}() got unexpected keyword argument(s) {}'.format(
        caller, ', '.join("'{}'".format(k) for k in kwargs)))


def check_unexpected_kwargs(kwargs, **unexpected):
    """Raise ``ValueError`` with the given message for each keyword of
    ``unexpected`` found in ``kwargs`` (for arguments that were removed).

    Args:
        kwargs (dict): the keyword arguments received.
        unexpected: ``name=message`` pairs.

    Example:
        >>> check_unexpected_kwargs({'train': True},
        ...     train='train is gone; use chainer.using_config')
        Traceback (most recent call last):
        ValueError: train is gone; use chainer.using_config
    """
    for name, message in unexpected.items():
        if name in kwargs:
            raise ValueError(message)


def parse_kwargs(kwargs, *name_and_values, **unexpected):
    """Take the named keyword arguments out of ``kwargs``, with defaults.

    Args:
        kwargs (dict): the keyword arguments received; the parsed ones are
            removed from it.
        name_and_values: ``(name, default)`` pairs, in the order of the
            returned values.
        unexpected: ``name=message`` pairs of removed arguments (see
            :func:`check_unexpected_kwargs`).

    Returns:
        tuple: the value of each name, ``kwargs[name]`` or its default.

    Raises:
        TypeError: naming the calling function, when ``kwargs`` holds any
            other keyword.

    Example:
        >>> def f(**kwargs):
        ...     return parse_kwargs(kwargs, ('a', 1), ('b', 2))
        >>> f(b=3)
        (1, 3)
    """
    values = tuple(kwargs.pop(name, default)
                   for name, default in name_and_values)
    check_unexpected_kwargs(kwargs, **unexpected)
    if kwargs:
        raise _unexpected(kwargs, _caller_name(1))
    return values


def assert_kwargs_empty(kwargs):
    """Raise ``TypeError`` naming the calling function when ``kwargs`` is
    not empty.

    Args:
        kwargs (dict): the keyword arguments left over.
    """
    if kwargs:
        raise _unexpected(kwargs, _caller_name(1))
