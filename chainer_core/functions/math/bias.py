"""bias: add an array broadcast along axes of another (Caffe's Bias)."""


def _expand(op, x, y, axis):
    """``y`` reshaped and broadcast to ``x.shape``, its axes placed at
    ``axis`` of ``x``."""
    from chainer_core.functions.array.broadcast import broadcast_to
    from chainer_core.functions.array.reshape import reshape
    for name, v in (('x', x), ('y', y)):
        if not hasattr(v, 'shape'):
            raise TypeError('{}: {} must be a Variable or an array, got {}'
                            .format(op, name, type(v).__name__))
    if not isinstance(axis, int) or isinstance(axis, bool):
        raise TypeError('{}: axis must be an int, got {!r}'.format(op, axis))
    if not 0 <= axis <= x.ndim - y.ndim or \
            x.shape[axis:axis + y.ndim] != y.shape:
        raise ValueError(
            '{}: y of shape {} must match the axes of x from axis={} on '
            '(x has shape {})'.format(op, y.shape, axis, x.shape))
    y_shape = (1,) * axis + y.shape + (1,) * (x.ndim - axis - y.ndim)
    return broadcast_to(reshape(y, y_shape), x.shape)


def bias(x, y, axis=1):
    """Elementwise sum with ``y`` broadcast along the other axes of ``x``.

    ``axis`` is the first axis of ``x`` that ``y`` covers: with ``x`` of
    shape ``(100, 3, 40, 60)``, ``y`` of shape ``(3, 40)`` and ``axis=1``,
    ``y`` is added as if of shape ``(1, 3, 40, 1)``.

    Args:
        x (Variable or array): input, float16/32/64.
        y (Variable or array): the bias, of the dtype of ``x``, with
            ``y.shape == x.shape[axis:axis + y.ndim]``.
        axis (int): the axis of ``x`` where the axes of ``y`` start.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return x + _expand('bias', x, y, axis)
