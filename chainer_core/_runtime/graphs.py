"""Graph delegation: backends that record and run autograd themselves.

A backend with its own autograd (chainer-native) returns a :class:`Graph`
from the optional method ``get_graph()`` of its Backend object. Variables
holding arrays of that backend then keep their graph in the backend:
``FunctionNode.apply``
hands ops with a *graph kernel* (``register_graph_kernel``) to the backend,
which computes the outputs and records their backward itself; every other
op runs its forward as usual and is recorded in the backend's graph as a
node whose backward calls the op's Python ``backward`` (so double backprop
and mixed graphs work). ``Variable.backward`` and ``chainer_core.grad`` then
run in the backend.

Graph kernels are looked up by the FunctionNode class, not a kernel name:
the kernel replaces the op as a whole (forward and graph recording) and
reads the op's attributes (stride, axis, ...) from the node instance.
"""
from backend_api.errors import PluginError
from backend_api.protocols import GRAPH_METHODS

from backend_api._markers import ESCAPE_HATCH

# array type -> Graph, or None for types whose backend has none. Filled on
# first sight of each type: asking a backend for its graph may load its
# native library, which must not happen at plugin discovery.
_graphs = {}
# FunctionNode class -> {backend name: (fn, distribution)}
_kernels = {}
# (FunctionNode class, array type) -> fn or None
_cache = {}


def check_graph(graph, where):
    """Raise a PluginError naming ``where`` if ``graph`` is incomplete."""
    missing = [m for m in GRAPH_METHODS
               if not callable(getattr(graph, m, None))]
    if missing:
        raise PluginError('{}: the graph {!r} lacks the methods {}; {}'
                          .format(where, graph, ', '.join(missing),
                                  ESCAPE_HATCH))


def graph_for_array(array):
    """The Graph recording autograd for ``array``'s backend, or None.

    One dict hit after the first array of each type. The backend is asked
    through its optional ``get_graph()`` method.
    """
    t = type(array)
    try:
        return _graphs[t]
    except KeyError:
        pass
    if array is None:
        return None
    from chainer_core._runtime.host import host
    backend = host.backend_for_array(array)
    getter = getattr(backend, 'get_graph', None)
    graph = getter() if callable(getter) else None
    if graph is not None:
        check_graph(graph, 'backend {!r}: get_graph()'.format(backend.name))
        graph.backend_name = backend.name
    _graphs[t] = graph
    _cache.clear()
    return graph


def remove_backend(backend_name):
    for t, g in list(_graphs.items()):
        if g is not None and g.backend_name == backend_name:
            del _graphs[t]
    for impls in _kernels.values():
        impls.pop(backend_name, None)
    _cache.clear()


def remove_all():
    _graphs.clear()
    _kernels.clear()
    _cache.clear()


def register_graph_kernel(node_class, backend_name, fn,
                          distribution='<unknown>'):
    """Make ``fn(node, inputs)`` run ``node_class`` ops on ``backend_name``.

    ``inputs`` are the backend's arrays, carrying their graph where they
    require grad. ``fn`` returns a tuple of output arrays with the graph
    recorded, or None to decline (the op then runs its own forward, recorded
    as a Python node).
    """
    if not isinstance(node_class, type):
        raise PluginError('graph kernel for backend {!r}: expected a '
                          'FunctionNode class, got {!r}'.format(
                              backend_name, node_class))
    if not callable(fn):
        raise PluginError('graph kernel {} for backend {!r} is not callable: '
                          '{!r}'.format(node_class.__name__, backend_name, fn))
    impls = _kernels.setdefault(node_class, {})
    previous = impls.get(backend_name)
    if previous is not None and previous[1] != distribution:
        raise PluginError(
            'graph kernel {} for backend {!r} is registered by both {} and {}'
            .format(node_class.__name__, backend_name, previous[1],
                    distribution))
    impls[backend_name] = (fn, distribution)
    _cache.clear()


def graph_kernel(node_class, array_type):
    """The graph kernel of ``node_class`` for ``array_type``, or None."""
    key = (node_class, array_type)
    try:
        return _cache[key]
    except KeyError:
        pass
    fn = None
    graph = _graphs.get(array_type)
    if graph is not None:
        impl = _kernels.get(node_class, {}).get(graph.backend_name)
        if impl is not None:
            fn = impl[0]
    _cache[key] = fn
    return fn


def graph_kernels():
    """``[(node class, backend name, distribution)]`` of every graph kernel."""
    return sorted(
        ((cls, b, d) for cls, impls in _kernels.items()
         for b, (_, d) in impls.items()),
        key=lambda e: (e[0].__module__, e[0].__qualname__, e[1]))
