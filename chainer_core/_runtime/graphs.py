"""Graph delegation: backends that record and run autograd themselves.

A backend with its own autograd (chainer-native) returns a :class:`Graph`
from the optional method ``get_graph()`` of its Backend object. Variables
holding arrays of that backend then keep their graph in the backend:
``FunctionNode.apply`` hands ops with a *graph kernel* to the backend, which
computes the outputs and records their backward itself; every other op runs
its forward as usual and is recorded in the backend's graph as a node whose
backward calls the op's Python ``backward`` (so double backprop and mixed
graphs work). ``Variable.backward`` and ``chainer_core.grad`` then run in
the backend.

Graph kernels are declared here by the core, as forward kernels are in
``kernels``: a name and the names of its parameters. An op names its graph
kernel in the class attribute ``FunctionNode.graph_kernel`` and gives the
parameter values of each call, so a backend implements a kernel as
``fn(label, inputs, **params)`` and never sees the op's class.
"""
import importlib
import inspect

from backend_api import rules as _rule_format
from backend_api.errors import PluginError
from backend_api.protocols import GRAPH_METHODS

from backend_api._markers import ESCAPE_HATCH
from chainer_core._runtime import kernels as _kernels_registry


class GraphKernelSpec:
    __slots__ = ('name', 'params', 'doc', 'checks_inputs', 'derivative',
                 'implementations')

    def __init__(self, name, params, doc, checks_inputs=False,
                 derivative=None):
        self.name = name
        self.params = params
        self.doc = doc
        self.checks_inputs = checks_inputs
        # The op's derivative rule (backend_api.rules.Rule).
        self.derivative = derivative
        # backend name -> (fn, distribution)
        self.implementations = {}

    @property
    def signature(self):
        return '(label, inputs{})'.format(
            ''.join(', ' + p for p in self.params))


# array type -> Graph, or None for types whose backend has none. Filled on
# first sight of each type: asking a backend for its graph may load its
# native library, which must not happen at plugin discovery.
_graphs = {}
_specs = {}
# (graph kernel name, array type) -> fn or None
_cache = {}
# graph kernel name -> {array type: fn or None}, the same entries for the
# operators of Variable, which hold their kernel's dict (cleared in place).
_cache_by_name = {}
# The names of the graph kernels declared with checks_inputs.
checking_kernels = set()
# Graph -> split(array), see split_for.
_splits = {}
# See on_new_graph.
_graph_listeners = []


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
        for fn in _graph_listeners:
            fn(graph)
    _graphs[t] = graph
    _clear_cache()
    return graph


def on_new_graph(fn):
    """Call ``fn(graph)`` for every backend Graph, now for those known and
    later as each is first obtained (the core attaches its view of it)."""
    _graph_listeners.append(fn)
    for graph in set(g for g in _graphs.values() if g is not None):
        fn(graph)


def split_for(graph):
    """``split(array)`` of ``graph``: ``(array, detach(array))`` for a graph
    array, ``(None, array)`` for any other; the graph's own optional
    ``split`` where it has one (one call per op output instead of two)."""
    try:
        return _splits[graph]
    except KeyError:
        pass
    split = getattr(graph, 'split', None)
    if not callable(split):
        requires_grad = graph.requires_grad
        detach = graph.detach

        def split(array):
            if requires_grad(array):
                return array, detach(array)
            return None, array
    _splits[graph] = split
    return split


def declare(name, params, doc='', checks_inputs=False, derivative=None):
    """Declare graph kernel ``name`` with the parameters ``params`` (a tuple
    of names); returns ``name``, for the op's ``graph_kernel`` attribute.

    ``derivative`` is the op's derivative rule (:mod:`backend_api.rules`):
    the core's graph and a backend's execute it alike, and the op's class
    gets its ``backward`` and what it retains from it.

    ``doc`` says what the kernel computes from its inputs and parameters,
    and for which inputs. With ``checks_inputs`` an implementation declines
    (returns NotImplemented) every call whose inputs ``doc`` does not cover,
    which are all the op's type check rejects: the core then skips that
    check before calling the kernel and runs it only when the kernel
    declines, so bad inputs get the same error on every device.
    """
    params = tuple(params)
    if name in _specs:
        raise ValueError('graph kernel {!r} is declared twice'.format(name))
    bad = [p for p in params if not (isinstance(p, str) and p.isidentifier()
                                     and p not in ('label', 'inputs'))]
    if bad:
        raise ValueError('graph kernel {!r}: parameter names must be '
                         'identifiers other than label and inputs, got {!r}'
                         .format(name, bad))
    rule = None
    if derivative is not None:
        try:
            rule = _rule_format.parse(inspect.cleandoc(derivative), params)
        except _rule_format.RuleError as e:
            raise _rule_format.RuleError('graph kernel {!r}: {}'.format(
                name, e)) from None
    _specs[name] = GraphKernelSpec(name, params, inspect.cleandoc(doc),
                                   checks_inputs, rule)
    if checks_inputs:
        checking_kernels.add(name)
    return name


def remove_backend(backend_name):
    for t, g in list(_graphs.items()):
        if g is not None and g.backend_name == backend_name:
            del _graphs[t]
            _splits.pop(g, None)
    for spec in _specs.values():
        spec.implementations.pop(backend_name, None)
    _clear_cache()


def remove_all():
    """Forget every backend's graph and graph kernels (declarations stay)."""
    _graphs.clear()
    _splits.clear()
    for spec in _specs.values():
        spec.implementations.clear()
    _clear_cache()


def _check_callable_as(spec, fn):
    """Why ``fn`` cannot be called as ``spec`` calls it, or None."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        # Some builtins expose no signature: nothing to check them against.
        return None
    try:
        sig.bind(None, (), **dict.fromkeys(spec.params))
    except TypeError as e:
        return '{}{} cannot be called as fn{}: {}'.format(
            getattr(fn, '__qualname__', type(fn).__name__), sig,
            spec.signature, e)
    return None


def register_graph_kernel(name, backend_name, fn, distribution='<unknown>'):
    """Make ``fn`` run graph kernel ``name`` for arrays of ``backend_name``.

    ``fn(label, inputs, **params)`` gets the op's label (for the recorded
    node), the inputs as the backend's arrays, carrying their graph where
    they require grad, and the declared parameters by name. It returns a
    tuple of output arrays with the graph recorded, or ``NotImplemented`` to
    decline the call (the op then runs its own forward, recorded as a Python
    node).

    ``fn`` may be given as ``'module:attribute'`` instead, imported when
    arrays of the backend first meet the op: a function of a native library
    that loads with the backend, after discovery, is then called with no
    Python function in between.
    """
    # The core's ops declare their graph kernels when they load, which
    # the kernel registry makes happen before a name is first needed.
    _kernels_registry.declare_all()
    spec = _specs.get(name) if isinstance(name, str) else None
    if spec is None:
        raise PluginError(
            'unknown graph kernel {!r} (backend {!r}); the graph kernels are '
            'listed by `python -m chainer_core kernels`'.format(
                name, backend_name))
    if isinstance(fn, str):
        module, _, attribute = fn.partition(':')
        if not module or not attribute:
            raise PluginError(
                'graph kernel {!r} for backend {!r}: {!r} names no function; '
                "expected 'module:attribute'".format(name, backend_name, fn))
    elif not callable(fn):
        raise PluginError('graph kernel {!r} for backend {!r} is not '
                          'callable: {!r}'.format(name, backend_name, fn))
    if not isinstance(backend_name, str) or not backend_name:
        raise PluginError('graph kernel {!r}: backend name must be a '
                          'non-empty string, got {!r}'.format(
                              name, backend_name))
    if not isinstance(fn, str):
        problem = _check_callable_as(spec, fn)
        if problem is not None:
            raise PluginError('graph kernel {!r} for backend {!r}: {}'.format(
                name, backend_name, problem))
    previous = spec.implementations.get(backend_name)
    if previous is not None and previous[1] != distribution:
        raise PluginError(
            'graph kernel {!r} for backend {!r} is registered by both {} and '
            '{}'.format(name, backend_name, previous[1], distribution))
    spec.implementations[backend_name] = (fn, distribution)
    _clear_cache()


def _clear_cache():
    _cache.clear()
    for d in _cache_by_name.values():
        d.clear()


def cache_for(name):
    """``{array type: fn or None}``: the cached implementations of graph
    kernel ``name`` (filled by :func:`graph_kernel`, emptied whenever
    implementations change), for a caller that looks one kernel up per op
    by array type alone."""
    return _cache_by_name.setdefault(name, {})


def graph_kernel(name, array_type):
    """The implementation of graph kernel ``name`` for ``array_type``, or
    None (cached: one dict hit after the first call)."""
    key = (name, array_type)
    try:
        return _cache[key]
    except KeyError:
        pass
    fn = None
    graph = _graphs.get(array_type)
    spec = _specs.get(name)
    if graph is not None and spec is not None:
        impl = spec.implementations.get(graph.backend_name)
        if impl is not None:
            fn = impl[0]
            if isinstance(fn, str):
                fn = _import_graph_kernel(spec, graph.backend_name, *impl)
                spec.implementations[graph.backend_name] = (fn, impl[1])
    _cache[key] = fn
    cache_for(name)[array_type] = fn
    return fn


def _import_graph_kernel(spec, backend_name, path, distribution):
    module, _, attribute = path.partition(':')
    where = 'graph kernel {!r} of backend {!r} ({})'.format(
        spec.name, backend_name, distribution)
    try:
        fn = getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError) as e:
        raise PluginError('{}: cannot import {!r}: {}; {}'.format(
            where, path, e, ESCAPE_HATCH)) from e
    problem = 'is not callable: {!r}'.format(fn) if not callable(fn) else \
        _check_callable_as(spec, fn)
    if problem is not None:
        raise PluginError('{}: {} {}; {}'.format(where, path, problem,
                                                 ESCAPE_HATCH))
    return fn


def get_spec(name):
    """The declaration of graph kernel ``name`` (KeyError if none)."""
    return _specs[name]


def specs():
    """Every declared graph kernel, sorted by name."""
    _kernels_registry.declare_all()
    return [_specs[k] for k in sorted(_specs)]
