"""The backward pass: walk the graph from outputs to inputs by rank."""
import heapq
import warnings

from chainer_core import _function_hooks, _variable_graphs
from chainer_core import variable as _variable
from chainer_core.configuration import config, using_config


def _check_grad(func, i, node, gx):
    if not isinstance(gx, _variable.Variable):
        raise TypeError('{}.backward returned {} for input {}; expected a '
                        'Variable or None'.format(func.label,
                                                  type(gx).__name__, i))
    data = gx._data
    if node.shape is None:
        return
    # Chainer's split: a wrong dtype is a TypeError, a wrong shape a
    # ValueError.
    if data.dtype != node.dtype:
        raise TypeError(
            '{}.backward returned a gradient of dtype {} for input {} of '
            'dtype {}'.format(func.label, data.dtype, i, node.dtype))
    if data.shape != node.shape:
        raise ValueError(
            '{}.backward returned a gradient of shape {} for input {} of '
            'shape {}'.format(func.label, data.shape, i, node.shape))


def _check_nan(func, gxs):
    for gx in gxs:
        if gx is None or gx._data.dtype.kind != 'f':
            continue
        xp = gx.xp
        if not bool(xp.isfinite(gx._data).all()):
            raise RuntimeError(
                'NaN or Inf is detected on backward computation of {}; '
                'config.debug is on'.format(func.label))


def _nodes_between(outputs, input_nodes):
    """The nodes on some path from ``input_nodes`` to ``outputs``.

    ``grad()`` runs backward only along these paths, so functions that do
    not lead to a requested input are neither computed nor released (their
    graph stays usable for a later ``backward()``).
    """
    consumers = {}
    stack = [y.node.creator_node for y in outputs
             if y.node.creator_node is not None]
    visited = set()
    while stack:
        func = stack.pop()
        if func in visited or func.inputs is None:
            continue
        visited.add(func)
        for x in func.inputs:
            if not x.requires_grad:
                continue
            consumers.setdefault(x, []).append(func)
            creator = x.creator_node
            if creator is not None and creator not in visited:
                stack.append(creator)
    required = set()
    stack = list(input_nodes)
    done = set()
    while stack:
        x = stack.pop()
        if x in required:
            continue
        required.add(x)
        for func in consumers.get(x, ()):
            if func in done:
                continue
            done.add(func)
            for ref in func.outputs:
                y = ref()
                if y is not None and y in consumers:
                    stack.append(y)
    return required


def _owns_memory(array):
    # Views (broadcasts, reshapes) may alias the gradient of another
    # variable, and NumPy broadcasts are read-only.
    return getattr(array, 'base', None) is None


def resolve_retain_graph(retain_graph, enable_double_backprop):
    """Whether a backward pass keeps the arrays ops retained for backward.

    Chainer keeps them (a graph may be backpropagated again, as a GAN's
    two losses through one generator output are); ``retain_graph=False``
    or ``config.retain_graph = False`` frees them at once. Double backprop
    always keeps them.
    """
    if retain_graph is None:
        retain_graph = config.retain_graph
    return bool(retain_graph or enable_double_backprop)


def backprop(outputs, grad_outputs, inputs, retain_grad,
             enable_double_backprop, retain_graph, loss_scale,
             grad_inputs=None):
    """Propagate ``grad_outputs`` back through the graph.

    With ``inputs`` (nodes) None, leaf variables that require grad get their
    gradients accumulated; otherwise only the paths to ``inputs`` are
    walked, the gradients of ``inputs`` are returned as a dict
    ``{node: Variable}`` and no leaf is touched. ``grad_inputs`` (with
    ``inputs``) are initial gradients of those nodes.
    """
    retain_graph = resolve_retain_graph(retain_graph, enable_double_backprop)
    required = None if inputs is None else _nodes_between(outputs, inputs)
    input_set = set(inputs) if inputs is not None else ()
    result = {}
    grads = {}
    heap = []
    seen = set()

    def push(func):
        if func not in seen:
            seen.add(func)
            # len(seen) breaks rank ties by push order, never comparing
            # two FunctionNodes.
            heapq.heappush(heap, (-func.rank, len(seen), func))

    leaves = []
    for y, gy in zip(outputs, grad_outputs):
        if gy is None:
            continue
        node = y.node
        prev = grads.get(node)
        grads[node] = gy if prev is None else prev + gy
        creator = node.creator_node
        if creator is not None:
            push(creator)
        elif inputs is None and prev is None and node.requires_grad:
            leaves.append(node)
    if grad_inputs is not None:
        for node, gx in zip(inputs, grad_inputs):
            if gx is not None:
                prev = grads.get(node)
                grads[node] = gx if prev is None else prev + gx

    debug = config.debug
    hooks = _function_hooks.get_function_hooks()
    # Arrays handed to leaves so far: no two leaves share one.
    used = set()
    # The ops a first-order backward applies get arrays made by other ops,
    # and _check_grad validates what each backward returns: their input
    # type checks would only repeat work (debug mode keeps them).
    check_types = enable_double_backprop or debug
    with using_config('enable_backprop', enable_double_backprop), \
            using_config('type_check', check_types and config.type_check):
        while heap:
            func = heapq.heappop(heap)[2]
            gys = []
            any_grad = False
            for ref in func.outputs:
                node = ref()
                if node is None:
                    gys.append(None)
                    continue
                g = grads.pop(node, None)
                if g is None and inputs is None:
                    # As in Chainer, an output no gradient reached in this
                    # pass contributes the gradient it already holds (set
                    # by the user on a sibling output, say).
                    var = node._variable()
                    if var is not None:
                        g = var._grad_var
                if node in input_set:
                    result[node] = g
                if retain_grad:
                    var = node._variable()
                    if var is not None:
                        var._grad_var = g
                        var._loss_scale = loss_scale
                if g is not None:
                    any_grad = True
                gys.append(g)
            if not any_grad:
                continue
            fin = func.inputs
            if fin is None:
                continue
            if required is None:
                targets = tuple([i for i, x in enumerate(fin)
                                 if x.requires_grad])
            else:
                targets = tuple([i for i, x in enumerate(fin)
                                 if x in required])
            if not targets:
                continue
            gys = tuple(gys)
            func_hooks = hooks
            if func._local_function_hooks:
                func_hooks = dict(hooks)
                func_hooks.update(func._local_function_hooks)
            if func_hooks:
                in_data = tuple([x.data for x in fin])
                out_grad = tuple([None if g is None else g._data
                                  for g in gys])
                for hook in func_hooks.values():
                    hook.backward_preprocess(func, in_data, out_grad)
            gxs = func.backward(targets, gys)
            if func_hooks:
                for hook in func_hooks.values():
                    hook.backward_postprocess(func, in_data, out_grad)
            if not isinstance(gxs, (tuple, list)):
                raise TypeError('{}.backward must return a tuple, got {}'
                                .format(func.label, type(gxs).__name__))
            if len(gxs) != len(targets):
                if len(gxs) == len(fin):
                    gxs = [gxs[i] for i in targets]
                else:
                    raise ValueError(
                        '{}.backward returned {} gradients for {} targets'
                        .format(func.label, len(gxs), len(targets)))
            if debug:
                _check_nan(func, gxs)
            for i, gx in zip(targets, gxs):
                if gx is None:
                    continue
                x = fin[i]
                _check_grad(func, i, x, gx)
                prev = grads.get(x)
                grads[x] = gx if prev is None else prev + gx
                creator = x.creator_node
                if creator is not None:
                    push(creator)
                elif inputs is None and prev is None:
                    leaves.append(x)
            if not retain_graph:
                func._release()
        if inputs is not None:
            for node in inputs:
                if node not in result:
                    result[node] = grads.get(node)
            return result
        for node in leaves:
            var = node._variable()
            if var is None:
                continue
            g = grads[node]
            # As in Chainer a leaf takes the array its gradient arrived as
            # (the output's own grad through an identity, say), except
            # where that would alias another leaf's gradient (add hands
            # one object to both inputs) or be a view of another array
            # (broadcast, reshape): then it gets its own writable copy, so
            # that in-place updates (zerograd, optimizer hooks) stay local.
            # With double backprop the gradient stays the graph's variable.
            if not enable_double_backprop and (
                    id(g._data) in used or not _owns_memory(g._data)):
                g = _variable.Variable(g._data.copy(), requires_grad=False)
            used.add(id(g._data))
            var._loss_scale = loss_scale
            if var._grad_var is None:
                var._grad_var = g
            else:
                var._grad_var = var._grad_var + g
    return None


def run_in_graph(fn, args, enable_double_backprop):
    """Run a backend graph's backward pass ``fn(*args)`` under the
    configuration the core's own pass uses: Python backward methods of ops
    recorded in that graph then record (or not) and check types alike."""
    check_types = enable_double_backprop or config.debug
    with using_config('enable_backprop', enable_double_backprop), \
            using_config('type_check', check_types and config.type_check):
        return fn(*args)


def backward(outputs, grad_outputs=None, **kwargs):
    """Run backprop from several variables at once (``chainer.backward``).

    Args:
        outputs (tuple or list of Variable): where backprop starts.
        grad_outputs (tuple or list of Variable, or None): their initial
            gradients; None takes each output's ``grad_var`` (no default of
            ones is made).
        enable_double_backprop (bool): record the graph of the backward
            computation.
    """
    enable_double_backprop = kwargs.pop('enable_double_backprop', False)
    if kwargs:
        raise TypeError('backward() got unexpected keyword arguments: {} '
                        '(retain_grad and loss_scale are not supported '
                        'here; use Variable.backward)'.format(
                            ', '.join(sorted(kwargs))))
    if not isinstance(outputs, (tuple, list)):
        raise TypeError('backward: outputs must be a tuple or a list, got {}'
                        .format(type(outputs).__name__))
    for y in outputs:
        if not isinstance(y, _variable.Variable):
            raise TypeError('backward: each output must be a Variable, got '
                            '{}'.format(type(y).__name__))
    if grad_outputs is None:
        grad_outputs = []
        for y in outputs:
            gy = y.grad_var
            if gy is None:
                warnings.warn(
                    'backward: an output has no grad (or appears twice); '
                    'chainer_core.backward does not default it to ones',
                    RuntimeWarning)
            y.grad_var = None
            grad_outputs.append(gy)
    else:
        if not isinstance(grad_outputs, (tuple, list)):
            raise TypeError('backward: grad_outputs must be None, a tuple '
                            'or a list, got {}'.format(
                                type(grad_outputs).__name__))
        if len(grad_outputs) != len(outputs):
            raise ValueError('backward: {} outputs but {} grad_outputs'
                             .format(len(outputs), len(grad_outputs)))
        grad_outputs = [
            gy if gy is None or isinstance(gy, _variable.Variable)
            else _variable.Variable(gy, requires_grad=False)
            for gy in grad_outputs]
    _variable_graphs.of_variables(outputs).backward_all(
        outputs, grad_outputs, enable_double_backprop)
