"""The two graphs a Variable's place can be in, behind one interface.

A Variable asks ``variable._graph_of()`` for the graph holding its place
and calls it; it never asks which one it is:

* :data:`CORE` is the core's own graph: the place is the Variable itself,
  with its :class:`~chainer_core.variable.VariableNode` and ``_grad_var``.
  Variables of every backend without a graph of its own live here, and so
  do leaves of a backend with one until an op records them.
* :class:`BackendGraph` wraps the ``backend_api`` Graph of a backend that
  records autograd itself (chainer-native); the place is the Variable's
  graph array there.

Both give gradients, nodes, creators and ranks, backward, ``unchain`` and
``unchain_backward`` with Chainer's behaviour, so they are interchangeable
for the Variable and for the tests that run the same scenario on each.
"""
import weakref

from chainer_core import _backprop
from chainer_core import variable as _variable_module
from chainer_core._runtime import graphs as _graphs
from chainer_core._runtime.host import host


def _variable():
    return _variable_module.Variable


_new_object = object.__new__


class GraphInput:
    """What ``FunctionNode.inputs`` holds for a node recorded in a backend's
    graph: the input's shape, dtype and name (backward methods read them),
    no graph links."""

    __slots__ = ('shape', 'dtype', 'name', 'requires_grad')
    creator_node = creator = None
    rank = 0
    data = None

    def __init__(self, var):
        data = var._data
        self.shape = None if data is None else data.shape
        self.dtype = None if data is None else data.dtype
        self.name = var._name
        self.requires_grad = var._requires_grad

    @property
    def ndim(self):
        return None if self.shape is None else len(self.shape)


def _retain(fnode, inputs, outputs):
    """Keep the inputs and outputs ``fnode`` asked to retain for backward
    (as each graph holds them: arrays, or graph arrays)."""
    idx = fnode._input_indexes_to_retain
    if idx is not None:
        fnode._retained_input_data = tuple([inputs[i] for i in idx])
    idx = fnode._output_indexes_to_retain
    if idx is not None:
        fnode._retained_output_data = tuple([outputs[i] for i in idx])


class CoreGraph:
    """The core's graph: nodes are VariableNodes, the gradient of a place is
    its Variable's ``_grad_var``."""

    def node(self, v):
        from chainer_core.variable import VariableNode
        node = v._node
        if node is None:
            node = v._node = VariableNode(v, v._name)
        return node

    def creator_node(self, v):
        node = v._node
        return None if node is None else node.creator_node

    def rank(self, v):
        node = v._node
        return 0 if node is None else node.rank

    def grad_var(self, v):
        return v._grad_var

    def set_grad_var(self, v, g):
        v._grad_var = g

    def grad(self, v, keep_graph=False):
        gv = v._grad_var
        if gv is None:
            return None
        if keep_graph:
            # The gradient's own graph array, if the gradient is in one.
            g = gv._garray
            if g is not None:
                return g
        return gv._data

    def set_grad(self, v, g):
        v._grad_var = None if g is None else _variable()(
            g, requires_grad=False)

    def zero_grad(self, v):
        gv = v._grad_var
        g = None if gv is None else gv._data
        # A read-only gradient (a NumPy broadcast view) cannot be zeroed in
        # place: it gets a fresh array.
        if g is None or g.shape != v._data.shape or \
                not getattr(getattr(g, 'flags', None), 'writeable', True):
            xp = host.device_from_array(v._data).xp
            v._grad_var = _variable()(xp.zeros_like(v._data),
                                      requires_grad=False)
        else:
            # Zeroing in place invalidates the graph that made it.
            gv.unchain()
            g.fill(0)

    def backward(self, v, gv, retain_grad, enable_double_backprop,
                 retain_graph, loss_scale):
        # As in Chainer v7 the starting gradient is consumed: afterwards the
        # root's grad is None unless retain_grad keeps it.
        v._grad_var = None
        _backprop.backprop((v,), (gv,), None, retain_grad,
                           enable_double_backprop, retain_graph, loss_scale)

    def backward_all(self, outputs, grad_outputs, enable_double_backprop):
        _backprop.backprop(outputs, grad_outputs, None, False,
                           enable_double_backprop, None, None)

    def gradients(self, outputs, inputs, gys, gis, retain_grad,
                  enable_double_backprop, retain_graph, loss_scale):
        nodes = [x.node for x in inputs]
        grads = _backprop.backprop(outputs, gys, nodes, retain_grad,
                                   enable_double_backprop, retain_graph,
                                   loss_scale, gis)
        return [grads.get(node) for node in nodes]

    def outputs(self, ys, requires_grad):
        """Variables of an op's outputs ``ys`` that no graph records."""
        Variable = _variable_module.Variable
        out = []
        for y in ys:
            v = _new_object(Variable)
            v._data = y
            v._requires_grad = requires_grad
            out.append(v)
        return tuple(out)

    def record(self, fnode, input_vars, in_data, outputs):
        """Record ``fnode``, whose forward gave ``outputs``: it becomes the
        creator of new VariableNodes and keeps what it retains."""
        variable = _variable_module
        rank = 0
        nodes = []
        for x in input_vars:
            n = x._node
            if n is None:
                n = x.node
            if n.rank > rank:
                rank = n.rank
            nodes.append(n)
        fnode.rank = rank
        fnode.inputs = tuple(nodes)
        Variable = variable.Variable
        VariableNode = variable.VariableNode
        ret = []
        out_nodes = []
        for y in outputs:
            v = _new_object(Variable)
            v._data = y
            v._requires_grad = True
            n = v._node = VariableNode(v, None, fnode)
            ret.append(v)
            out_nodes.append(weakref.ref(n))
        fnode.outputs = tuple(out_nodes)
        _retain(fnode, in_data, outputs)
        return tuple(ret)

    def retained_inputs(self, fnode):
        Variable = _variable_module.Variable
        out = []
        for i, data in zip(fnode._input_indexes_to_retain,
                           fnode._retained_input_data):
            node = fnode.inputs[i]
            # The input variable itself while it lives, as in Chainer (with
            # its current array); a stand-in on the same node once freed.
            # Replacing a live variable would divert its leaf gradient.
            var = node._variable()
            if var is None:
                var = Variable(data, name=node.name,
                               requires_grad=node.requires_grad)
                var._node = node
                node._variable = weakref.ref(var)
            out.append(var)
        return tuple(out)

    def retained_outputs(self, fnode):
        Variable = _variable_module.Variable
        out = []
        outputs = None
        for i, data in zip(fnode._output_indexes_to_retain,
                           fnode._retained_output_data):
            node = fnode.outputs[i]()
            if node is None:
                # The output was freed: a fresh variable stands in for it,
                # and becomes the op's output so that gradients flowing
                # into it (double backprop) reach the op.
                var = Variable(data, requires_grad=True)
                var.node.set_creator_node(fnode)
                if outputs is None:
                    outputs = list(fnode.outputs)
                outputs[i] = weakref.ref(var.node)
            else:
                var = node.get_variable()
                if var._data is None:
                    var._data = data
            out.append(var)
        if outputs is not None:
            fnode.outputs = tuple(outputs)
        return tuple(out)

    def unchain(self, v):
        if v._node is not None:
            v._node.unchain()

    def unchain_backward(self, v):
        node = v._node
        if node is None:
            return
        stack = [node.creator_node] if node.creator_node else []
        seen = set()
        while stack:
            f = stack.pop()
            if f is None or id(f) in seen:
                continue
            seen.add(id(f))
            for x in f.inputs or ():
                if x.creator_node is not None:
                    stack.append(x.creator_node)
            f.unchain()


CORE = CoreGraph()


class BackendGraph:
    """A backend's Graph (backend_api.protocols.Graph) for the Variables
    whose place is a graph array in it (``variable._garray``)."""

    def __init__(self, graph):
        self.graph = graph
        self._get_grad = graph.get_grad

    def node(self, v):
        get = getattr(self.graph, 'node', None)
        node = None if get is None else get(v._garray)
        if node is None:
            # A graph without nodes: the variable shows a node of its own.
            return CORE.node(v)
        if v._name is not None:
            node.name = v._name
        return node

    def creator_node(self, v):
        get = getattr(self.graph, 'node', None)
        node = None if get is None else get(v._garray)
        return None if node is None else node.creator_node

    def rank(self, v):
        get = getattr(self.graph, 'node', None)
        node = None if get is None else get(v._garray)
        return 0 if node is None else node.rank

    def grad_var(self, v):
        g = self.graph.get_grad(v._garray, True)
        return None if g is None else _variable()._from_graph(self.graph, g)

    def set_grad_var(self, v, g):
        # A gradient variable that requires grad joins the graph, so double
        # backprop differentiates through it as in Chainer.
        self.graph.set_grad(v._garray, None if g is None else (
            g._graph_input() if g._graph is self.graph else g._data))

    def grad(self, v, keep_graph=False):
        return self._get_grad(v._garray, keep_graph)

    def set_grad(self, v, g):
        graph = self.graph
        if g is not None and graph.requires_grad(g):
            g = graph.detach(g)
        graph.set_grad(v._garray, g)

    def zero_grad(self, v):
        self.graph.set_grad(v._garray, host.device_from_array(
            v._data).xp.zeros_like(v._data))

    def backward(self, v, gv, retain_grad, enable_double_backprop,
                 retain_graph, loss_scale):
        graph = self.graph
        ga = v._garray
        if enable_double_backprop and gv._graph is not None:
            g = gv._graph_input()
        else:
            g = gv._data if gv._garray is None else gv._garray
        graph.set_grad(ga, g)
        _backprop.run_in_graph(
            graph.backward, (ga, retain_grad, enable_double_backprop,
                             _backprop.resolve_retain_graph(
                                 retain_graph, enable_double_backprop)),
            enable_double_backprop)
        if not retain_grad:
            graph.set_grad(ga, None)
        if loss_scale is not None:
            for p in list(graph_parameters.values()):
                if p._grad_array() is not None:
                    p._loss_scale = loss_scale

    def backward_all(self, outputs, grad_outputs, enable_double_backprop):
        # One pass from sum_i <y_i, gy_i>, whose gradient at each y_i is
        # gy_i.
        from chainer_core.configuration import using_config
        from chainer_core.functions.math.sum import sum as sum_
        for y, gy in zip(outputs, grad_outputs):
            # A leaf outside the graph (never used by a recorded op, or an
            # op that returned its input) takes its gradient as the core's
            # pass gives it to a leaf.
            if gy is not None and y._garray is None and y._requires_grad:
                g = y._grad_var
                y._grad_var = gy if g is None else g + gy
        live = [(y, gy) for y, gy in zip(outputs, grad_outputs)
                if gy is not None and y._garray is not None]
        if not live:
            return
        with using_config('enable_backprop', True):
            total = None
            for y, gy in live:
                term = sum_(y * gy.array)
                total = term if total is None else total + term
        total.backward(enable_double_backprop=enable_double_backprop)

    def gradients(self, outputs, inputs, gys, gis, retain_grad,
                  enable_double_backprop, retain_graph, loss_scale):
        # loss_scale is already in gys: the backend's pass has no
        # bookkeeping of its own for it.
        graph = self.graph

        def raw(v):
            # With double backprop the gradient's own graph counts: a leaf
            # output gradient that requires grad joins the graph here.
            if enable_double_backprop and v._graph is not None:
                return v._graph_input()
            return v._data if v._garray is None else v._garray

        ys, g_ys = [], []
        direct = {}
        for y, gy in zip(outputs, gys):
            if y._garray is not None:
                ys.append(y._garray)
                g_ys.append(raw(gy))
            else:
                # An output outside the graph only reaches an input that
                # is the very same variable.
                direct.setdefault(id(y), []).append(gy)
        xs = [x._graph_input() for x in inputs]
        in_graph = [i for i, x in enumerate(inputs) if x._garray is not None]
        found = [None] * len(inputs)
        if ys and in_graph:
            retain_graph = _backprop.resolve_retain_graph(
                retain_graph, enable_double_backprop)
            res = _backprop.run_in_graph(graph.grad, (
                ys, [xs[i] for i in in_graph], g_ys, retain_grad,
                enable_double_backprop, retain_graph), enable_double_backprop)
            Variable = _variable()
            for i, g in zip(in_graph, res):
                if g is not None:
                    found[i] = Variable._from_graph(graph, g)
        result = []
        for i, x in enumerate(inputs):
            gx = found[i]
            for gy in direct.get(id(x), ()):
                gx = gy if gx is None else gx + gy
            if gis is not None and gis[i] is not None:
                gx = gis[i] if gx is None else gx + gis[i]
            result.append(gx)
        return result

    def outputs(self, ys, requires_grad):
        from_graph = _variable_module.variable_from_graph
        return tuple([from_graph(self.graph, y, requires_grad) for y in ys])

    def record(self, fnode, input_vars, in_data, outputs):
        """Record ``fnode``, whose forward gave ``outputs``, as a node of
        the backend's graph whose backward calls the op's Python backward
        (``FunctionNode._backward_in_graph``)."""
        graph = self.graph
        g_in = [x._graph_input() for x in input_vars]
        handle, g_out = graph.record(fnode.label, g_in, outputs,
                                     fnode._backward_in_graph)
        fnode._variable_graph = self
        fnode._graph = graph
        fnode._graph_handle = handle
        fnode.inputs = tuple([GraphInput(x) for x in input_vars])
        _retain(fnode, g_in, outputs)
        from_graph = _variable_module.variable_from_graph
        return tuple([from_graph(graph, y) for y in g_out])

    def retained_inputs(self, fnode):
        from_graph = _variable_module.variable_from_graph
        return tuple([from_graph(self.graph, d)
                      for d in fnode._retained_input_data])

    def retained_outputs(self, fnode):
        graph = self.graph
        from_graph = _variable_module.variable_from_graph
        return tuple([from_graph(graph, graph.retained_output(
            fnode._graph_handle, i, d)) for i, d in zip(
                fnode._output_indexes_to_retain,
                fnode._retained_output_data)])

    def _cut(self, v, method):
        # A graph without the optional method: the variable leaves the
        # graph (other variables keep their places).
        cut = getattr(self.graph, method, None)
        if cut is None:
            v._leave_graph()
        else:
            cut(v._garray)

    def unchain(self, v):
        self._cut(v, 'unchain')

    def unchain_backward(self, v):
        self._cut(v, 'unchain_backward')


_backend_graphs = {}

# The Parameters that joined a backend's graph (their gradients live there),
# for backward's loss-scale bookkeeping.
graph_parameters = weakref.WeakValueDictionary()


def of_variables(variables):
    """The graph an operation on several variables (``chainer.grad``,
    ``chainer.backward``) runs in: their backend's, if it records autograd
    itself, else the core's."""
    graph = variables[0]._graph if variables else None
    return CORE if graph is None else backend_graph(graph)


def backend_graph(graph):
    """The BackendGraph of a backend's Graph, one per Graph (also its
    attribute ``_variable_graph``, which Variables read)."""
    try:
        return _backend_graphs[graph]
    except KeyError:
        bg = _backend_graphs[graph] = BackendGraph(graph)
        graph._variable_graph = bg
        return bg


_graphs.on_new_graph(backend_graph)
