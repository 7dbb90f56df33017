"""Marking APIs as experimental (Chainer's ``chainer.utils.experimental``)."""
import warnings


def experimental(api_name):
    """Warn that ``api_name`` is experimental and may change.

    Call it at the start of an experimental function (or ``__init__``).
    The warning is a :class:`FutureWarning`; setting
    ``chainer_core.disable_experimental_feature_warning = True`` silences
    it.

    Args:
        api_name (str): the API's name as users spell it, e.g.
            ``'chainer.links.MyLink'``.

    Example:
        >>> def my_function(x):
        ...     experimental('my_module.my_function')
        ...     return x
    """
    import chainer_core
    if getattr(chainer_core, 'disable_experimental_feature_warning', False):
        return
    warnings.warn(
        '{} is experimental. The interface can change in the future.'.format(
            api_name), FutureWarning, stacklevel=2)
