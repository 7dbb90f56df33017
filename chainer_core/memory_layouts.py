"""Memory layouts of images and filters (Chainer's
``chainer.memory_layouts``).

An array's *semantic* shape is the one Chainer's functions document
(images ``(N, C, H, W)``, filters ``(out_C, in_C, kH, kW)``); its *raw*
shape is the order of its axes in memory. The standard layout, ``None``
(:data:`CUDNN_CHANNEL_FIRST_X`, :data:`CUDNN_CHANNEL_FIRST_W`), keeps the
channels second; the channel-last layouts put them last (``NHWC``), which
cuDNN prefers on tensor cores.

Variables here keep their arrays in the standard layout (they have no
``layout`` attribute of their own, which reads as the standard layout).
:class:`AsLayout` and the shape functions work on arrays whose layout the
caller states.

Example:
    >>> x = numpy.zeros((2, 3, 4, 5))
    >>> y = AsLayout(CUDNN_CHANNEL_LAST_X).apply((x,))[0]
    >>> get_raw_shape(y), get_semantic_shape(
    ...     y.array, assumed_layout=CUDNN_CHANNEL_LAST_X)
    ((2, 4, 5, 3), (2, 3, 4, 5))
"""
from chainer_core import function_node
from chainer_core import variable

CUDNN_CHANNEL_FIRST_X = None
CUDNN_CHANNEL_FIRST_W = None
CUDNN_CHANNEL_LAST_X = 'CUDNN_CHANNEL_LAST_X'
CUDNN_CHANNEL_LAST_W = 'CUDNN_CHANNEL_LAST_W'

_LAYOUTS = (None, CUDNN_CHANNEL_LAST_X, CUDNN_CHANNEL_LAST_W)


class _Unspecified:
    def __repr__(self):
        return '<unspecified>'


_unspecified = _Unspecified()


def _check_layout(layout, where):
    if layout not in _LAYOUTS:
        raise ValueError('{}: unknown memory layout {!r}; expected one of {}'
                         .format(where, layout, _LAYOUTS))


def _to_raw_axes(ndim, layout):
    # The axes that take a standard-layout array to ``layout``: the
    # channel axis (1) moves to the end.
    if layout is None:
        return tuple(range(ndim))
    if ndim < 2:
        raise ValueError('memory layout {} needs at least 2 axes, got {}'
                         .format(layout, ndim))
    return (0,) + tuple(range(2, ndim)) + (1,)


def _inverse(axes):
    inverse = [0] * len(axes)
    for i, a in enumerate(axes):
        inverse[a] = i
    return tuple(inverse)


def get_raw_shape(arr_or_var):
    """The shape of an array (or of a Variable's array) in memory order.

    Args:
        arr_or_var: an array or a :class:`~chainer_core.Variable`.

    Returns:
        tuple of ints: the shape.
    """
    if isinstance(arr_or_var, variable.Variable):
        arr_or_var = arr_or_var.array
    return tuple(arr_or_var.shape)


def get_semantic_shape(arr_or_var, *, assumed_layout=_unspecified):
    """The shape of an array in the standard (channel-first) order.

    Args:
        arr_or_var: an array or a :class:`~chainer_core.Variable`.
        assumed_layout: the layout of the array's memory; unspecified means
            the standard layout for an array and the Variable's own (the
            standard one) for a Variable.

    Returns:
        tuple of ints: the shape with the channels second.

    Example:
        >>> get_semantic_shape(numpy.zeros((2, 4, 5, 3)),
        ...                    assumed_layout=CUDNN_CHANNEL_LAST_X)
        (2, 3, 4, 5)
    """
    if isinstance(arr_or_var, variable.Variable):
        own = getattr(arr_or_var, 'layout', None)
        if assumed_layout is not _unspecified and assumed_layout != own:
            raise ValueError(
                'get_semantic_shape: assumed_layout is {!r} but the '
                'Variable has layout {!r}'.format(assumed_layout, own))
        assumed_layout = own
    elif assumed_layout is _unspecified:
        assumed_layout = None
    _check_layout(assumed_layout, 'get_semantic_shape')
    shape = get_raw_shape(arr_or_var)
    axes = _inverse(_to_raw_axes(len(shape), assumed_layout))
    return tuple(shape[a] for a in axes)


class AsLayout(function_node.FunctionNode):
    """Copy a standard-layout array into the memory order of ``layout``.

    The output's array has the raw shape of ``layout`` (``(N, H, W, C)``
    for :data:`CUDNN_CHANNEL_LAST_X`); the gradient is brought back to the
    standard layout.

    Args:
        layout: the target layout (``None`` copies nothing).

    Example:
        >>> y, = AsLayout(CUDNN_CHANNEL_LAST_X).apply((x,))
    """

    def __init__(self, layout):
        _check_layout(layout, 'AsLayout')
        self.layout = layout

    def forward(self, inputs):
        x, = inputs
        if self.layout is None:
            return x,
        # ``copy`` lays the transposed axes out in memory (C order).
        return x.transpose(_to_raw_axes(x.ndim, self.layout)).copy(),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions import transpose
        gy, = grad_outputs
        if self.layout is None:
            return gy,
        axes = _to_raw_axes(gy.ndim, self.layout)
        return transpose(gy, _inverse(axes)),
