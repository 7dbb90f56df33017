"""Process-wide link hooks state and the callback argument records."""
import collections
import threading

_state = threading.local()


def get_link_hooks():
    hooks = getattr(_state, 'hooks', None)
    if hooks is None:
        hooks = _state.hooks = collections.OrderedDict()
    return hooks


class ForwardCallbackArgs:
    """What a link hook sees around ``forward``."""

    def __init__(self, link, forward_name, args, kwargs, out=None):
        self.link = link
        self.forward_name = forward_name
        self.args = args
        self.kwargs = kwargs
        self.out = out
