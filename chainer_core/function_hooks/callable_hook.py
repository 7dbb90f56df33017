"""CallableHook: a function hook made of plain callables."""
from chainer_core import function_hook


class CallableHook(function_hook.FunctionHook):
    """A function hook whose callbacks are the given callables.

    Each argument, when not None, is called with the arguments of the
    :class:`~chainer_core.FunctionHook` method of the same name.
    """

    name = 'CallableHook'

    def __init__(self, added=None, deleted=None, forward_preprocess=None,
                 forward_postprocess=None, backward_preprocess=None,
                 backward_postprocess=None):
        self._added = added
        self._deleted = deleted
        self._forward_preprocess = forward_preprocess
        self._forward_postprocess = forward_postprocess
        self._backward_preprocess = backward_preprocess
        self._backward_postprocess = backward_postprocess

    def added(self, function):
        if self._added is not None:
            self._added(function)

    def deleted(self, function):
        if self._deleted is not None:
            self._deleted(function)

    def forward_preprocess(self, function, in_data):
        if self._forward_preprocess is not None:
            self._forward_preprocess(function, in_data)

    def forward_postprocess(self, function, in_data):
        if self._forward_postprocess is not None:
            self._forward_postprocess(function, in_data)

    def backward_preprocess(self, function, in_data, out_grad):
        if self._backward_preprocess is not None:
            self._backward_preprocess(function, in_data, out_grad)

    def backward_postprocess(self, function, in_data, out_grad):
        if self._backward_postprocess is not None:
            self._backward_postprocess(function, in_data, out_grad)
