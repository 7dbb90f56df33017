"""Process-wide function hooks (``chainer_core.function_hooks``) state."""
import collections
import threading

_state = threading.local()


def get_function_hooks():
    hooks = getattr(_state, 'hooks', None)
    if hooks is None:
        hooks = _state.hooks = collections.OrderedDict()
    return hooks
