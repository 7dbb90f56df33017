"""Initializers filling deterministic values: constants and the identity."""
import numpy

from chainer_core.initializer import Initializer
from chainer_core.initializers._random import _fill


class Constant(Initializer):
    """Fill with ``fill_value``, a scalar or an array broadcast to the
    shape.

    Args:
        fill_value: the scalar or array.
        dtype: the dtype of the arrays it fills (None: the default dtype;
            it is not taken from ``fill_value``).
    """

    def __init__(self, fill_value, dtype=None):
        self.fill_value = fill_value
        super().__init__(dtype)

    def __call__(self, array):
        self._check_dtype(array)
        fill = self.fill_value
        if hasattr(fill, 'shape') and type(fill) is not type(array):
            from chainer_core._runtime.host import device_from_array
            fill = device_from_array(array).send(fill)
        array[...] = fill


class Zero(Constant):
    """Fill with zeros."""

    def __init__(self, dtype=None):
        super().__init__(0.0, dtype)


class One(Constant):
    """Fill with ones."""

    def __init__(self, dtype=None):
        super().__init__(1.0, dtype)


class NaN(Constant):
    """Fill with NaN (to catch parameters used before they are set)."""

    def __init__(self, dtype=None):
        super().__init__(numpy.nan, dtype)


class Identity(Initializer):
    """``scale`` times the identity matrix (square 2-D arrays only).

    Args:
        scale (float): the diagonal value.
        dtype: the dtype of the arrays it fills (None: the default dtype).
    """

    def __init__(self, scale=1.0, dtype=None):
        self.scale = scale
        super().__init__(dtype)

    def __call__(self, array):
        self._check_dtype(array)
        if array.ndim != 2 or array.shape[0] != array.shape[1]:
            raise ValueError('Identity needs a square matrix, got shape {}'
                             .format(array.shape))
        _fill(array, self.scale * numpy.eye(array.shape[0]))
