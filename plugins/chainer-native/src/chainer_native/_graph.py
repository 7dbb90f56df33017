"""chainer-core's graph delegation on chainer_native (the Graph protocol of
backend_api.protocols).

Variables holding native arrays keep their graph in C++. The functions
below implement graph kernels the core declares (``python -m chainer_core
kernels`` lists them): one native routine computes the op and records its
backward, the op's derivative rule as the core declares it, executed in
C++ (csrc/rules.h), so neither the forward nor the backward of these ops
runs Python per node. Every other op is recorded as a C++ node that calls the op's
Python backward. A graph kernel returns NotImplemented where the routine
differs from the op (arguments or dtypes the routine lacks), and the op
then runs that way.
"""
import weakref

import chainer_native as cn


def _core():
    return cn._load()


# Graph nodes as Python sees them (creator, computational_graph), made on
# request. One object per live C++ node while any is held, so that a walk
# over the graph meets each node once.
_nodes = weakref.WeakValueDictionary()
_node_classes = None


def _classes():
    """The node classes, subclasses of the core's: defined on first use, as
    the plugin loads before chainer_core's graph modules."""
    global _node_classes
    if _node_classes is not None:
        return _node_classes
    from chainer_core.function_node import FunctionNode
    from chainer_core.variable import VariableNode

    class NativeVariableNode(VariableNode):
        """A variable node of the native graph (``Variable.node``)."""

        __slots__ = ('_ref',)

        def __init__(self, ref):
            self._ref = ref
            self._variable = _no_variable
            self.data = None
            self.name = None
            self.requires_grad = True
            self.shape = ref.shape
            self.dtype = ref.dtype

        @property
        def creator_node(self):
            return _wrap(self._ref.creator)

        @creator_node.setter
        def creator_node(self, func):
            if func is not None:
                raise ValueError('the creator of a variable in the native '
                                 'graph can only be removed (None)')
            self._ref.unchain()

        @property
        def rank(self):
            return self._ref.rank

        def set_creator_node(self, creator_node):
            self.creator_node = creator_node

        set_creator = set_creator_node

        def unchain(self):
            self._ref.unchain()

    class NativeFunctionNode(FunctionNode):
        """An op of the native graph (``Variable.creator``): its input
        nodes, weak references to its outputs, its label and rank."""

        def __init__(self, ref):
            self._ref = ref

        @property
        def label(self):
            return self._ref.name

        @property
        def rank(self):
            return self._ref.rank

        @property
        def inputs(self):
            # Inputs no gradient flows to (constants) are not recorded.
            return tuple([_wrap(n) for n in self._ref.inputs
                          if n is not None])

        @property
        def outputs(self):
            return tuple([_OutputRef(self._ref, i)
                          for i in range(len(self._ref.outputs))])

        def unchain(self):
            self._ref.unchain()

    _node_classes = NativeVariableNode, NativeFunctionNode
    return _node_classes


def _no_variable():
    return None


class _OutputRef:
    """A weak reference to an op's output node, as in the core's
    ``FunctionNode.outputs``: calling it gives the node, or None once the
    output is gone."""

    __slots__ = ('_op', '_index')

    def __init__(self, op, index):
        self._op = op
        self._index = index

    def __call__(self):
        return _wrap(self._op.outputs[self._index])


def _wrap(ref):
    """The Python node of a C++ node reference (None stays None)."""
    if ref is None:
        return None
    key = (type(ref), ref.key)
    node = _nodes.get(key)
    if node is None:
        var_cls, fn_cls = _classes()
        node = (var_cls if type(ref) is _core()._VarNode else fn_cls)(ref)
        _nodes[key] = node
    return node


class NativeGraph:
    """The Graph protocol of backend_api on chainer_native arrays.

    Made once arrays exist (the core asks for it on first sight of one), so
    the methods the core calls per op are the extension's own functions,
    called without a Python frame in between.
    """

    def __init__(self):
        core = _core()
        self.detach = core.ndarray.as_grad_stopped
        self.requires_grad = core.ndarray.is_grad_required
        self.get_grad = core._get_grad
        self.set_grad = core._set_grad
        self.split = core._graph_and_data
        self.backward = core.ndarray.backward

    def leaf(self, array):
        return array.as_grad_stopped().require_grad()

    def grad(self, outputs, inputs, grad_outputs, retain_grad,
             enable_double_backprop, retain_graph):
        return cn.grad(outputs, inputs, grad_outputs, retain_grad,
                       enable_double_backprop, retain_graph)

    def record(self, label, inputs, outputs, backward):
        return _core()._record(label, inputs, outputs, backward)

    def retained_output(self, handle, index, data):
        return handle.output(index, data)

    def node(self, array):
        return _wrap(_core()._node(array))

    def unchain(self, array):
        ref = _core()._node(array)
        if ref is not None:
            ref.unchain()

    def unchain_backward(self, array):
        ref = _core()._node(array)
        if ref is not None:
            ref.unchain_backward()


# The routines are named, not referenced: registration happens at plugin
# discovery, before the extension loads.

def _recorded(label, y):
    """``(y,)``, the op that made ``y`` named ``label`` as the ops recorded
    from Python are (graph dumps and error messages name ops by it)."""
    cn._name_creator(y, label)
    return y,


def _native_kernel(routine):
    """The extension's graph kernel ``routine``, which computes the op,
    records it named ``label`` and declines the inputs outside the kernel's
    declaration; named, as the extension loads after registration."""
    return 'chainer_native._core:' + routine


def _constant(routine, reverse=False):
    def kernel(label, inputs, value):
        x, = inputs
        fn = getattr(cn, routine)
        return _recorded(label, fn(value, x) if reverse else fn(x, value))
    return kernel


def _softmax(routine):
    def kernel(label, inputs, axis):
        return _recorded(label, getattr(cn, routine)(inputs[0], axis))
    return kernel


def _mixed_dtypes(inputs):
    # The convolution routine takes one dtype; with weights of another
    # float dtype than x the op's forward promotes them itself.
    dtype = inputs[0].dtype
    return any(a.dtype != dtype for a in inputs[1:])


def _matmul(label, inputs, transa, transb):
    a, b = inputs
    if transa:
        a = a.swapaxes(-1, -2)
    if transb:
        b = b.swapaxes(-1, -2)
    return _recorded(label, cn.matmul(a, b))


def _sum(label, inputs, axis, keepdims):
    return _recorded(label, cn.sum(inputs[0], axis=axis, keepdims=keepdims))


def _reshape(label, inputs, shape):
    return _recorded(label, cn.reshape(inputs[0], shape))


def _transpose(label, inputs, axes):
    return _recorded(label, cn.transpose(inputs[0], axes))


def _convolution(label, inputs, stride, pad, dilate, groups, cover_all):
    if _mixed_dtypes(inputs):
        return NotImplemented
    x, W = inputs[:2]
    b = inputs[2] if len(inputs) == 3 else None
    return _recorded(label, cn.conv(x, W, b, stride=stride, pad=pad,
                                    dilation=dilate, groups=groups,
                                    cover_all=cover_all))


def _max_pooling(label, inputs, ksize, stride, pad, cover_all):
    return _recorded(label, cn.max_pool(inputs[0], ksize, stride, pad,
                                        cover_all))


def graph_kernels():
    """``{graph kernel name: fn(label, inputs, **params)}``, fn or the
    ``'module:attribute'`` of one of the extension."""
    return {
        'add': _native_kernel('_graph_add'),
        'sub': _native_kernel('_graph_subtract'),
        'mul': _native_kernel('_graph_multiply'),
        'div': _native_kernel('_graph_divide'),
        'neg': _native_kernel('_graph_negative'),
        'add_constant': _constant('add'),
        'sub_from_constant': _constant('subtract', reverse=True),
        'mul_constant': _constant('multiply'),
        'div_from_constant': _constant('divide', reverse=True),
        'exp': _native_kernel('_graph_exp'),
        'log': _native_kernel('_graph_log'),
        'relu': _native_kernel('_graph_relu'),
        'sigmoid': _native_kernel('_graph_sigmoid'),
        'tanh': _native_kernel('_graph_tanh'),
        'softmax': _softmax('softmax'),
        'log_softmax': _softmax('log_softmax'),
        'linear': _native_kernel('_graph_linear'),
        'matmul': _matmul,
        'sum': _sum,
        'reshape': _reshape,
        'transpose': _transpose,
        'softmax_cross_entropy': _native_kernel(
            '_graph_softmax_cross_entropy'),
        'convolution_nd': _convolution,
        'max_pooling_nd': _max_pooling,
    }
