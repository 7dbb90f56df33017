"""The ``@static_graph`` decorator (Chainer's
``chainer.graph_optimizations.static_graph``)."""
# Chainer's documented options and ``min_batch_size``, which its decorator
# also accepts; none changes what a call computes here, since every call
# runs the decorated code define-by-run.
_OPTIONS = frozenset([
    'force_test_define_by_run', 'minimize_cache_size', 'verbosity_level',
    'enable_double_backprop', 'min_batch_size'])


def static_graph(*args, **kwargs):
    """Mark a chain's ``__call__`` (or ``forward``) as a static graph.

    Usable bare (``@static_graph``) or with options
    (``@static_graph(verbosity_level=1)``). Each call runs the decorated
    method as written, so outputs, gradients and double backprop are
    exactly those of the undecorated method; functions marked with
    :func:`static_code` inside it run on every call.

    Args:
        func: the method, when used bare.
        force_test_define_by_run (bool): accepted for compatibility.
        minimize_cache_size (bool): accepted for compatibility.
        verbosity_level (int): accepted for compatibility.
        enable_double_backprop (bool): accepted for compatibility; double
            backprop always works.
        min_batch_size (int): accepted for compatibility.

    Returns:
        The method itself, or a decorator returning it when called with
        options only.

    Example:
        >>> class MLP(chainer.Chain):
        ...     def __init__(self):
        ...         super().__init__()
        ...         with self.init_scope():
        ...             self.l1 = L.Linear(None, 10)
        ...     @static_graph
        ...     def forward(self, x):
        ...         return F.relu(self.l1(x))
    """
    unknown = sorted(set(kwargs) - _OPTIONS)
    if unknown:
        raise TypeError('static_graph: unexpected options {}; it takes {}'
                        .format(unknown, sorted(_OPTIONS)))
    if len(args) > 1 or (args and not callable(args[0])):
        raise TypeError(
            'static_graph: use @static_graph or @static_graph(option=...); '
            'got positional arguments {!r}'.format(args))

    if args:
        return args[0]
    return lambda func: func
