"""scale: multiply by an array broadcast along axes of another (Caffe's
Scale)."""
from chainer_core.functions.math.bias import _expand


def scale(x, y, axis=1):
    """Elementwise product with ``y`` broadcast along the other axes of
    ``x``.

    ``axis`` is the first axis of ``x`` that ``y`` covers: with ``x`` of
    shape ``(100, 3, 40, 5, 6)``, ``y`` of shape ``(3, 40)`` and ``axis=1``,
    ``x`` is multiplied by ``y`` as if of shape ``(1, 3, 40, 1, 1)``.

    Args:
        x (Variable or array): input, float16/32/64.
        y (Variable or array): the factors, of the dtype of ``x``, with
            ``y.shape == x.shape[axis:axis + y.ndim]``.
        axis (int): the axis of ``x`` where the axes of ``y`` start.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return x * _expand('scale', x, y, axis)
