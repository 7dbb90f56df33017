"""Initializers: callables that fill a parameter array."""
import numpy

from chainer_core.configuration import config


class Initializer:
    """Base of initializers.

    Args:
        dtype: the dtype of arrays it makes (None: ``config.dtype``).
    """

    def __init__(self, dtype=None):
        self.dtype = dtype

    def __call__(self, array):
        raise NotImplementedError(
            '{} must implement __call__'.format(type(self).__name__))


class Constant(Initializer):
    """Fill with ``fill_value`` (a scalar or an array broadcast to shape)."""

    def __init__(self, fill_value, dtype=None):
        # As in Chainer the dtype is not taken from fill_value: an array or
        # NumPy scalar fills arrays of config.dtype unless dtype is given.
        self.fill_value = fill_value
        super().__init__(dtype)

    def __call__(self, array):
        if self.dtype is not None and numpy.dtype(self.dtype) != array.dtype:
            raise ValueError('Constant: initializer dtype {} differs from '
                             'array dtype {}'.format(self.dtype, array.dtype))
        fill = self.fill_value
        if hasattr(fill, 'shape') and type(fill) is not type(array):
            from backend_api._host import device_from_array
            fill = device_from_array(array).send(fill)
        array[...] = fill


class Zero(Constant):
    def __init__(self, dtype=None):
        super().__init__(0.0, dtype)


class One(Constant):
    def __init__(self, dtype=None):
        super().__init__(1.0, dtype)


class NaN(Constant):
    def __init__(self, dtype=None):
        super().__init__(numpy.nan, dtype)


def _get_initializer(initializer):
    """Chainer's rule for link arguments: None means LeCun normal (scale
    1), a scalar or an array a :class:`Constant`, a callable itself."""
    from chainer_core.variable import Variable
    if initializer is None:
        return LeCunNormal()
    if isinstance(initializer, (str, bytes, Variable)):
        # numpy counts strings as scalars, and a Variable has a shape, but
        # neither can fill a parameter.
        raise TypeError('initializer must be a callable, a scalar or an '
                        'array, got {}'.format(type(initializer).__name__))
    if numpy.isscalar(initializer) or hasattr(initializer, 'shape'):
        return Constant(initializer)
    if not callable(initializer):
        raise TypeError('initializer must be a callable, a scalar or an '
                        'array, got {}'.format(type(initializer).__name__))
    return initializer


def generate_array(initializer, shape, xp, dtype=None, device=None):
    """An array of ``shape`` on ``xp``/``device`` filled by initializer."""
    dtype_attr = getattr(initializer, 'dtype', None)
    if dtype is not None and dtype_attr is not None and \
            numpy.dtype(dtype) != numpy.dtype(dtype_attr):
        raise ValueError('dtype {} differs from the initializer dtype {}'
                         .format(dtype, dtype_attr))
    # `is None`, not `or`: with NumPy 1.x a numpy.dtype is falsy (it has no
    # fields), so `dtype or ...` silently fell back to config.dtype.
    if dtype is None:
        dtype = dtype_attr if dtype_attr is not None else config.dtype
    dtype = numpy.dtype(dtype)
    if device is not None:
        from backend_api._host import get_device
        device = get_device(device)
    if device is not None and device.xp is not xp:
        raise ValueError('generate_array: xp {} does not match device {}'
                         .format(getattr(xp, '__name__', xp), device))
    if isinstance(shape, int):
        shape = (shape,)
    array = xp.empty(tuple(shape), dtype=dtype)
    initializer(array)
    return array


from chainer_core.initializers._random import (  # NOQA  (after the base)
    GlorotNormal, GlorotUniform, HeNormal, HeUniform, Identity, LeCunNormal,
    LeCunUniform, Normal, Orthogonal, Uniform, get_fans)
