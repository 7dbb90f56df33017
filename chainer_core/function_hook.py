"""FunctionHook: callbacks around the forward and backward of every op."""
from chainer_core import _function_hooks


def get_function_hooks():
    """The function hooks installed for this thread (name -> hook)."""
    return _function_hooks.get_function_hooks()


class FunctionHook:
    """Base of function hooks.

    A hook is called around the forward and backward computation of
    function nodes. ``with hook:`` installs it for every node applied in
    this thread inside the block; ``node.add_hook(hook)`` installs it for
    one node. Subclasses override the callbacks they need.

    Attributes:
        name (str): the key of the hook among the installed ones; two
            hooks of one name cannot be installed together.
    """

    name = 'FunctionHook'

    def __enter__(self):
        hooks = _function_hooks.get_function_hooks()
        if self.name in hooks:
            raise KeyError('function hook {!r} is already installed'.format(
                self.name))
        hooks[self.name] = self
        self.added(None)
        return self

    def __exit__(self, *exc):
        hooks = _function_hooks.get_function_hooks()
        hooks[self.name].deleted(None)
        del hooks[self.name]

    def added(self, function):
        """Called when the hook is installed (``function`` is None for a
        thread-wide installation)."""

    def deleted(self, function):
        """Called when the hook is removed (``function`` as in
        :meth:`added`)."""

    def forward_preprocess(self, function, in_data):
        """Called before ``function`` computes its outputs from the input
        arrays ``in_data``."""

    def forward_postprocess(self, function, in_data):
        """Called after ``function`` computed its outputs."""

    def forward_result(self, function, inputs, outputs):
        """Called when the call of ``function`` is complete, with its input
        and output Variables (tuples).

        An addition to Chainer's callbacks, which see arrays only. It lets
        a tool follow a forward pass on every backend, such as
        :func:`chainer_core.onnx.export`: a backend that records autograd
        itself (``native:0``) keeps in its graph only what backward needs,
        neither the op's parameters nor inputs no gradient flows to, while
        here ``function`` is the op with its parameters and ``inputs`` are
        all its inputs, in order.

        Example:
            >>> class Trace(chainer.FunctionHook):
            ...     def __init__(self):
            ...         self.calls = []
            ...     def forward_result(self, function, inputs, outputs):
            ...         self.calls.append((function.label, len(outputs)))
            >>> with Trace() as trace:
            ...     y = F.relu(x)
            >>> trace.calls
            [('ReLU', 1)]
        """

    def backward_preprocess(self, function, in_data, out_grad):
        """Called before the backward computation of ``function``, with
        the input arrays and the output gradient arrays (None where
        missing)."""

    def backward_postprocess(self, function, in_data, out_grad):
        """Called after the backward computation of ``function``."""
