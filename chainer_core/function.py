"""Old-style functions: forward and backward on arrays (Chainer's
``chainer.Function``), run as function nodes through an adapter."""
import warnings
import weakref

from chainer_core import function_node
from chainer_core.function_hook import FunctionHook  # NOQA
# Chainer defined these here; chainer_core.no_backprop_mode is the same
# object.
from chainer_core import force_backprop_mode, no_backprop_mode  # NOQA
from chainer_core.variable import Variable


class FunctionAdapter(function_node.FunctionNode):
    """The function node that runs an old-style :class:`Function`.

    Before the call the Function owns its adapter and the adapter refers to
    the Function weakly; the call reverses this, so that the graph (which
    keeps the adapter) keeps the Function alive as long as it is needed for
    backward.
    """

    _function = None
    _weak_function = None

    def __init__(self, function):
        self._weak_function = weakref.ref(function)
        function._owned_node = self

    @property
    def function(self):
        """The old-style Function this node runs."""
        func = self._function
        if func is not None:
            return func
        return self._weak_function()

    @property
    def label(self):
        return self.function.label

    @property
    def _impl_name(self):
        return type(self.function).__name__

    def check_type_forward(self, in_types):
        self.function.check_type_forward(in_types)

    def forward(self, inputs):
        # Old-style backward receives every input unless forward says
        # otherwise (with its own retain_inputs call).
        self.retain_inputs(range(len(inputs)))
        return self.function.forward(inputs)

    def backward(self, target_input_indexes, grad_outputs):
        n = len(self.inputs)
        in_data = [None] * n
        indexes = self._input_indexes_to_retain or ()
        for i, x in zip(indexes, self.get_retained_inputs()):
            in_data[i] = x.array
        in_data = tuple(in_data)
        gys = tuple([None if g is None else g.array for g in grad_outputs])
        gxs = self.function.backward(in_data, gys)
        if not isinstance(gxs, tuple):
            raise TypeError('{}.backward must return a tuple of arrays, got '
                            '{}'.format(self.label, type(gxs).__name__))
        if len(gxs) != n:
            raise ValueError('{}.backward returned {} gradients for {} '
                             'inputs'.format(self.label, len(gxs), n))
        # The gradients are plain arrays: an old-style function cannot be
        # differentiated twice, so they do not take part in a graph.
        return tuple([None if gxs[i] is None else
                      Variable(gxs[i], requires_grad=False)
                      for i in target_input_indexes])


class Function:
    """An old-style differentiable function, written on arrays.

    Subclasses implement :meth:`forward` (or :meth:`forward_cpu` and
    :meth:`forward_gpu`) returning a tuple of arrays, and :meth:`backward`
    (or :meth:`backward_cpu` and :meth:`backward_gpu`) returning a tuple
    with one gradient array (or None) per input. Calling the function on
    Variables or arrays returns a Variable (a tuple of them for several
    outputs) connected to the graph through a :class:`FunctionAdapter`.

    By default every input is kept for backward; call
    :meth:`retain_inputs` in forward to keep fewer, and
    :meth:`retain_outputs` to read :attr:`output_data` in backward.
    A Function object computes one call: make a new one per call.
    """

    _owned_node = None
    _node_ref = None

    @property
    def node(self):
        """The :class:`FunctionAdapter` that runs this function."""
        node = self._owned_node
        if node is None and self._node_ref is not None:
            node = self._node_ref()
        if node is None:
            node = FunctionAdapter(self)
        return node

    def __call__(self, *inputs):
        node = self.node
        if node.inputs is not None:
            raise RuntimeError(
                '{} is already part of a graph: an old-style Function '
                'object computes one call; create a new instance for each '
                'call'.format(self.label))
        node._function = self
        node._weak_function = None
        self._node_ref = weakref.ref(node)
        self._owned_node = None
        outputs = node.apply(inputs)
        if len(outputs) == 1:
            return outputs[0]
        return outputs

    @property
    def inputs(self):
        """The input nodes (after a call with the graph recorded)."""
        return self.node.inputs

    @property
    def outputs(self):
        """Weak references to the output nodes."""
        return self.node.outputs

    @property
    def local_function_hooks(self):
        return self.node.local_function_hooks

    @property
    def label(self):
        """The name of the function, for messages (the class name)."""
        return type(self).__name__

    @property
    def output_data(self):
        """The output arrays kept by :meth:`retain_outputs` (None for the
        others)."""
        return self.node.output_data

    @property
    def rank(self):
        return self.node.rank

    @property
    def stack(self):
        return self.node.stack

    def check_type_forward(self, in_types):
        """Check the input types (override; default checks nothing)."""

    def forward(self, inputs):
        """Compute the outputs: :meth:`forward_gpu` for arrays of a GPU
        device, :meth:`forward_cpu` otherwise (on NumPy views of other CPU
        backends' arrays)."""
        return function_node.call_cpu_or_gpu(
            self.forward_cpu, self.forward_gpu, inputs)

    def forward_cpu(self, inputs):
        raise NotImplementedError(
            '{} implements neither forward nor forward_cpu'.format(
                self.label))

    def forward_gpu(self, inputs):
        raise NotImplementedError(
            '{} implements neither forward nor forward_gpu'.format(
                self.label))

    def backward(self, inputs, grad_outputs):
        """The input gradients: :meth:`backward_gpu` for arrays of a GPU
        device, :meth:`backward_cpu` otherwise (as :meth:`forward`)."""
        n = len(inputs)
        return function_node.call_cpu_or_gpu(
            lambda a: self.backward_cpu(a[:n], a[n:]),
            lambda a: self.backward_gpu(a[:n], a[n:]),
            tuple(inputs) + tuple(grad_outputs))

    def backward_cpu(self, inputs, grad_outputs):
        """No gradient for any input (override)."""
        return tuple([None] * len(inputs))

    def backward_gpu(self, inputs, grad_outputs):
        """No gradient for any input (override)."""
        return tuple([None] * len(inputs))

    def unchain(self):
        """Remove the function from the graph."""
        self.node.unchain()

    def add_hook(self, hook, name=None):
        """Add a function hook for this function only."""
        self.node.add_hook(hook, name)

    def delete_hook(self, name):
        self.node.delete_hook(name)

    def retain_inputs(self, indexes):
        """Keep only the inputs at ``indexes`` for backward (the others
        are passed as None)."""
        self.node.retain_inputs(indexes)

    def retain_outputs(self, indexes, retain_after_backward=False):
        """Keep the outputs at ``indexes`` for :attr:`output_data`."""
        if retain_after_backward:
            warnings.warn('retain_after_backward has no effect',
                          DeprecationWarning)
        self.node.retain_outputs(indexes)
