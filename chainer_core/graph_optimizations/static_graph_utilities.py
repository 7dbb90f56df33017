"""The ``@static_code`` decorator and the hook ops call for static graphs
(Chainer's ``chainer.graph_optimizations.static_graph_utilities``)."""


def static_code(*dec_args, **dec_kwargs):
    """Mark code inside a :func:`static_graph` method that must run on
    every call (side effects, in-place updates).

    Usable bare (``@static_code``) or with options
    (``@static_code(func_name='update')``). Every call runs the function
    with its arguments, ``inputs=``/``outputs=`` keyword lists included.

    Args:
        func: the function, when used bare.
        func_name (str): its name in Chainer's schedule listings
            (accepted for compatibility).

    Returns:
        The function itself, or a decorator returning it when called with
        options only.

    Example:
        >>> class Counter(chainer.Chain):
        ...     calls = 0
        ...     @static_graph
        ...     def forward(self, x):
        ...         self.count()
        ...         return x * 2
        ...     @static_code
        ...     def count(self):
        ...         self.calls += 1
    """
    unknown = sorted(set(dec_kwargs) - {'func_name'})
    if unknown:
        raise TypeError('static_code: unexpected options {}; it takes '
                        "['func_name']".format(unknown))
    if len(dec_args) > 1 or (dec_args and not callable(dec_args[0])):
        raise TypeError(
            'static_code: use @static_code or @static_code(func_name=...); '
            'got positional arguments {!r}'.format(dec_args))

    if dec_args:
        return dec_args[0]
    return lambda func: func


def static_forward_optimizations(func, inputs):
    """The outputs of the function node ``func`` on the arrays ``inputs``
    while a static schedule is built: Chainer calls it in place of
    ``func.forward(inputs)``. Graphs always run define-by-run here, so
    there is nothing to record and this is ``func.forward(inputs)``.

    Args:
        func: the function node being applied.
        inputs (tuple): its input arrays.

    Returns:
        tuple: the outputs of ``func.forward(inputs)``.
    """
    return func.forward(inputs)
