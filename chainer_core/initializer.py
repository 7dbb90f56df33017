"""The base of initializers, and the fans of a weight shape (Chainer's
``chainer.initializer``)."""
import numpy


class Initializer:
    """Base of initializers: a callable that fills an array in place.

    Args:
        dtype: the dtype of the arrays it fills, or None to fill arrays of
            the default dtype (``chainer_core.get_dtype()``).

    Attributes:
        dtype: as given.
    """

    def __init__(self, dtype=None):
        self.dtype = dtype

    def __call__(self, array):
        """Fill ``array`` in place."""
        raise NotImplementedError(
            '{} must implement __call__'.format(type(self).__name__))

    def _check_dtype(self, array):
        if self.dtype is not None and numpy.dtype(self.dtype) != array.dtype:
            raise ValueError('{}: initializer dtype {} differs from array '
                             'dtype {}'.format(type(self).__name__,
                                               numpy.dtype(self.dtype),
                                               array.dtype))


def get_fans(shape):
    """``(fan_in, fan_out)`` of a weight of shape ``(out, in, *kernel)``.

    Args:
        shape (tuple of ints): the weight shape, at least two axes.

    Returns:
        tuple: ``(in * prod(kernel), out * prod(kernel))``.
    """
    if not isinstance(shape, tuple) or len(shape) < 2:
        raise ValueError('get_fans: shape must be a tuple of at least 2 '
                         'axes, got {!r}'.format(shape))
    receptive = 1
    for s in shape[2:]:
        receptive *= int(s)
    return int(shape[1]) * receptive, int(shape[0]) * receptive
