"""Array helpers used by ops (written against any ``xp``)."""


def as_mat(x):
    """``x`` as a matrix: 1-D becomes a column ``(n, 1)``, N-D keeps its
    first axis and flattens the rest.

    Args:
        x: an array.

    Example:
        >>> as_mat(numpy.zeros((2, 3, 4))).shape
        (2, 12)
    """
    if x.ndim == 2:
        return x
    if x.ndim == 1:
        return x.reshape(len(x), 1)
    return x.reshape(len(x), -1)


def one_minus(x):
    """``1 - x`` in the dtype of ``x`` on every NumPy.

    A Python 1 would not do: NumPy 1.x makes ``1 - x`` float64 for a 0-dim
    float16 or float32 ``x`` (NumPy 2 keeps the dtype of ``x``). Nor would
    ``x.dtype.type(1) - x``: the NumPy scalar on the left turns arrays of
    other backends into NumPy arrays. ``-x + 1`` is the same number.

    Args:
        x: a float array.
    """
    return -x + x.dtype.type(1)


def as_vec(x):
    """``x`` flattened to 1-D (a view where possible).

    Args:
        x: an array.
    """
    return x if x.ndim == 1 else x.ravel()


def empty_like(x):
    """An uninitialised array with the shape and dtype of ``x``, on its
    device (a NumPy array for a NumPy input).

    Args:
        x: an array of any backend whose namespace has ``empty_like``.
    """
    from chainer_core import backend
    return backend.get_array_module(x).empty_like(x)


def size_of_shape(shape):
    """The number of elements of an array of ``shape`` (an ``int``).

    Args:
        shape (tuple of ints): the shape.
    """
    size = 1
    for s in shape:
        size *= s
    return size


def sum_to_axes(shape_from, shape_to):
    """Axes to sum (and whether to keep them) to reduce one shape to another.

    Returns ``(lead, axes)``: the number of leading axes to drop and the axes
    of size 1 in ``shape_to`` that were broadcast.
    """
    lead = len(shape_from) - len(shape_to)
    axes = tuple(lead + i for i, s in enumerate(shape_to)
                 if s == 1 and shape_from[lead + i] != 1)
    return lead, axes


def sum_to(x, shape):
    """Sum the array ``x`` over broadcast axes so that it has ``shape``.

    Args:
        x: an array (for a Variable use ``chainer.functions.sum_to``).
        shape (tuple of ints): a shape ``x``'s shape was broadcast from.

    Returns:
        An array of ``shape`` (``x`` itself when it has it).

    Example:
        >>> sum_to(numpy.ones((2, 3)), (1, 3))
        array([[2., 2., 2.]])
    """
    if not hasattr(x, 'ndim') or hasattr(x, 'creator'):
        raise TypeError(
            'utils.sum_to: x must be an array (use functions.sum_to for a '
            'Variable); got {}'.format(type(x).__name__))
    shape = tuple(shape)
    if x.shape == shape:
        return x
    lead = x.ndim - len(shape)
    if lead < 0 or any(s not in (1, d) for s, d in
                       zip(shape, x.shape[lead:])):
        raise ValueError(
            'utils.sum_to: cannot sum an array of shape {} to shape {}'
            .format(x.shape, shape))
    lead, axes = sum_to_axes(x.shape, shape)
    y = x.sum(axis=tuple(range(lead)) + axes, keepdims=True)
    if lead:
        y = y.reshape(shape)
    return y
