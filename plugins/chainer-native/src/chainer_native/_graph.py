"""chainer-core's graph delegation on chainer_native (backend_api.graph).

Variables holding native arrays keep their graph in C++. The ops below are
*graph kernels*: one native routine computes the op and records its
backward, so neither the forward nor the backward of these ops runs Python
per node. Every other op is recorded as a C++ node that calls the op's
Python backward. A graph kernel returns None where the routine differs from
the op (arguments the routine lacks), and the op then runs that way.
"""
import importlib
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
    """The Graph protocol of backend_api on chainer_native arrays."""

    def leaf(self, array):
        return array.as_grad_stopped().require_grad()

    def detach(self, array):
        return array.as_grad_stopped()

    def requires_grad(self, array):
        return array.is_grad_required()

    def get_grad(self, array, keep_graph):
        g = array.grad
        if g is None or keep_graph or not g.is_grad_required():
            return g
        return g.as_grad_stopped()

    def set_grad(self, array, grad):
        array.grad = grad

    def backward(self, array, retain_grad, enable_double_backprop,
                 retain_graph):
        array.backward(retain_grad, enable_double_backprop, retain_graph)

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


def _ints(v):
    return tuple(int(i) for i in v)


# The routines are named, not referenced: registration happens at plugin
# discovery, before the extension loads.

def _binary(name):
    def kernel(node, inputs):
        x, y = inputs
        return getattr(cn, name)(x, y),
    return kernel


def _constant(name, reverse=False):
    def kernel(node, inputs):
        x, = inputs
        value = x.dtype.type(node.value)
        routine = getattr(cn, name)
        return (routine(value, x) if reverse else routine(x, value)),
    return kernel


def _unary(name):
    def kernel(node, inputs):
        return getattr(cn, name)(inputs[0]),
    return kernel


def _mixed_dtypes(inputs):
    # The linear and convolution routines take one dtype; with weights of
    # another float dtype than x the op's forward promotes them itself.
    dtype = inputs[0].dtype
    return any(a.dtype != dtype for a in inputs[1:])


def _linear(node, inputs):
    if _mixed_dtypes(inputs):
        return None
    return cn.linear(*inputs),


def _matmul(node, inputs):
    a, b = inputs
    if node.transa:
        a = a.swapaxes(-1, -2)
    if node.transb:
        b = b.swapaxes(-1, -2)
    return cn.matmul(a, b),


def _sum(node, inputs):
    x, = inputs
    # The op normalises its axis in forward; the routine takes any form.
    return cn.sum(x, axis=node.axis, keepdims=node.keepdims),


def _reshape(node, inputs):
    x, = inputs
    return cn.reshape(x, node.shape),


def _transpose(node, inputs):
    x, = inputs
    return cn.transpose(x, node.axes),


def _softmax(name):
    def kernel(node, inputs):
        x, = inputs
        return getattr(cn, name)(x, node.axis),
    return kernel


def _softmax_cross_entropy(node, inputs):
    x, t = inputs
    if node.class_weight is not None or t.dtype.kind != 'i' or \
            x.ndim != 2 or node.reduce not in ('mean', 'no') or \
            (node.reduce == 'mean' and not node.normalize):
        return None
    node._check_labels(x, t)
    return cn.softmax_cross_entropy(x, t, ignore_label=node.ignore_label,
                                    reduce=node.reduce),


def _convolution(node, inputs):
    if _mixed_dtypes(inputs):
        return None
    if len(inputs) == 2:
        x, W = inputs
        b = None
    else:
        x, W, b = inputs
    return cn.conv(x, W, b, stride=_ints(node.stride), pad=_ints(node.pad),
                   dilation=_ints(node.dilate), groups=node.groups,
                   cover_all=node.cover_all),


def _max_pooling(node, inputs):
    if node.return_indices:
        # The caller reads node.indexes, which only the op's forward sets.
        return None
    x, = inputs
    return cn.max_pool(x, _ints(node.ksize), _ints(node.stride),
                       _ints(node.pad), node.cover_all),


_GRAPH_KERNELS = (
    ('math.basic_math.Add', _binary('add')),
    ('math.basic_math.Sub', _binary('subtract')),
    ('math.basic_math.Mul', _binary('multiply')),
    ('math.basic_math.Div', _binary('divide')),
    ('math.basic_math.Neg', _unary('negative')),
    ('math.basic_math.AddConstant', _constant('add')),
    ('math.basic_math.SubFromConstant', _constant('subtract', reverse=True)),
    ('math.basic_math.MulConstant', _constant('multiply')),
    ('math.basic_math.DivFromConstant', _constant('divide', reverse=True)),
    ('math.exponential.Exp', _unary('exp')),
    ('math.exponential.Log', _unary('log')),
    ('activation.relu.ReLU', _unary('relu')),
    ('activation.sigmoid.Sigmoid', _unary('sigmoid')),
    ('activation.tanh.Tanh', _unary('tanh')),
    ('activation.softmax.Softmax', _softmax('softmax')),
    ('activation.log_softmax.LogSoftmax', _softmax('log_softmax')),
    ('connection.linear.LinearFunction', _linear),
    ('math.matmul.MatMul', _matmul),
    ('math.sum.Sum', _sum),
    ('array.reshape.Reshape', _reshape),
    ('array.transpose.Transpose', _transpose),
    ('loss.softmax_cross_entropy.SoftmaxCrossEntropy',
     _softmax_cross_entropy),
    ('connection.convolution_2d.Convolution2DFunction', _convolution),
    ('connection.convolution_nd.ConvolutionND', _convolution),
    ('pooling.max_pooling_2d.MaxPooling2D', _max_pooling),
    ('pooling.max_pooling_nd.MaxPoolingND', _max_pooling),
)


def _labelled(fn):
    """``fn`` whose recorded op carries the op's label, as the ops recorded
    from Python do (graph dumps name ops by it)."""
    def kernel(node, inputs):
        outputs = fn(node, inputs)
        if outputs:
            _core()._name_creator(outputs[0], node.label)
        return outputs
    return kernel


def graph_kernels():
    """``{FunctionNode class: graph kernel}``."""
    table = {}
    for path, fn in _GRAPH_KERNELS:
        # Modules by path: the packages export functions of the same names.
        module, cls = path.rsplit('.', 1)
        table[getattr(importlib.import_module(
            'chainer_core.functions.' + module), cls)] = _labelled(fn)
    return table
