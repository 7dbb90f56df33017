"""The backward pass: walk the graph from outputs to inputs by rank."""
import heapq

from chainer_core import variable as _variable
from chainer_core.configuration import config, using_config


def _check_grad(func, i, node, gx):
    if not isinstance(gx, _variable.Variable):
        raise TypeError('{}.backward returned {} for input {}; expected a '
                        'Variable or None'.format(func.label,
                                                  type(gx).__name__, i))
    data = gx._data
    if node.shape is not None and (data.shape != node.shape
                                   or data.dtype != node.dtype):
        raise ValueError(
            '{}.backward returned a gradient of shape {} and dtype {} for '
            'input {} of shape {} and dtype {}'.format(
                func.label, data.shape, data.dtype, i, node.shape,
                node.dtype))


def _check_nan(func, gxs):
    for gx in gxs:
        if gx is None or gx._data.dtype.kind != 'f':
            continue
        xp = gx.xp
        if not bool(xp.isfinite(gx._data).all()):
            raise RuntimeError(
                'NaN or Inf is detected on backward computation of {}; '
                'config.debug is on'.format(func.label))


def backprop(outputs, grad_outputs, inputs, retain_grad,
             enable_double_backprop, retain_graph, loss_scale):
    """Propagate ``grad_outputs`` back through the graph.

    With ``inputs`` (nodes) None, leaf variables that require grad get their
    gradients accumulated; otherwise the gradients of ``inputs`` are returned
    as a dict ``{node: Variable}`` and no variable is touched.
    """
    if retain_graph is None:
        retain_graph = enable_double_backprop
    keep = set(inputs) if inputs is not None else ()
    grads = {}
    heap = []
    seen = set()
    for y, gy in zip(outputs, grad_outputs):
        if gy is None:
            continue
        node = y.node
        prev = grads.get(node)
        grads[node] = gy if prev is None else prev + gy
        creator = node.creator_node
        if creator is not None and creator not in seen:
            seen.add(creator)
            heapq.heappush(heap, (-creator.rank, id(creator), creator))
    leaves = []
    debug = config.debug
    with using_config('enable_backprop', enable_double_backprop):
        while heap:
            func = heapq.heappop(heap)[2]
            gys = []
            any_grad = False
            for ref in func.outputs:
                node = ref()
                if node is None:
                    gys.append(None)
                    continue
                if node in keep:
                    g = grads.get(node)
                else:
                    g = grads.pop(node, None)
                if g is not None:
                    any_grad = True
                    if retain_grad:
                        var = node._variable()
                        if var is not None:
                            var._grad_var = g
                gys.append(g)
            if not any_grad:
                continue
            fin = func.inputs
            if fin is None:
                continue
            targets = tuple([i for i, x in enumerate(fin) if x.requires_grad])
            if not targets:
                continue
            gxs = func.backward(targets, tuple(gys))
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
                if creator is None:
                    if prev is None:
                        leaves.append(x)
                elif creator not in seen:
                    seen.add(creator)
                    heapq.heappush(heap, (-creator.rank, id(creator),
                                          creator))
            if not retain_graph:
                func._release()
        if inputs is not None:
            return grads
        # A backward may hand one gradient object to several inputs (add
        # does); leaves get their own copy so in-place updates stay local.
        given = {id(g) for g in grad_outputs}
        for node in leaves:
            var = node._variable()
            if var is None:
                continue
            g = grads[node]
            if id(g) in given and not enable_double_backprop:
                g = _variable.Variable(g._data.copy(), requires_grad=False)
            given.add(id(g))
            if loss_scale is not None and hasattr(var, '_loss_scale'):
                var._loss_scale = loss_scale
            if var._grad_var is None:
                var._grad_var = g
            else:
                var._grad_var = var._grad_var + g
    return None
