"""Initializers: callables that fill a parameter array (Chainer's
``chainer.initializers``)."""
import numbers

import numpy

from chainer_core.configuration import get_dtype
from chainer_core.initializer import Initializer  # NOQA
from chainer_core.initializer import get_fans  # NOQA
from chainer_core.initializers import constant  # NOQA
from chainer_core.initializers import normal  # NOQA
from chainer_core.initializers import orthogonal  # NOQA
from chainer_core.initializers import sampling  # NOQA
from chainer_core.initializers import uniform  # NOQA
from chainer_core.initializers.constant import Constant  # NOQA
from chainer_core.initializers.constant import Identity  # NOQA
from chainer_core.initializers.constant import NaN  # NOQA
from chainer_core.initializers.constant import One  # NOQA
from chainer_core.initializers.constant import Zero  # NOQA
from chainer_core.initializers.normal import GlorotNormal  # NOQA
from chainer_core.initializers.normal import HeNormal  # NOQA
from chainer_core.initializers.normal import LeCunNormal  # NOQA
from chainer_core.initializers.normal import Normal  # NOQA
from chainer_core.initializers.orthogonal import Orthogonal  # NOQA
from chainer_core.initializers.sampling import DownsamplingConvFilter  # NOQA
from chainer_core.initializers.sampling import UpsamplingDeconvFilter  # NOQA
from chainer_core.initializers.uniform import GlorotUniform  # NOQA
from chainer_core.initializers.uniform import HeUniform  # NOQA
from chainer_core.initializers.uniform import LeCunUniform  # NOQA
from chainer_core.initializers.uniform import Uniform  # NOQA


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


def _as_shape(shape):
    """``shape`` as a tuple of Python ints: an int or a sequence of ints,
    NumPy integers included."""
    def dim(s):
        if isinstance(s, (bool, numpy.bool_)) or \
                not isinstance(s, numbers.Integral):
            raise TypeError('generate_array: shape must be an int or a '
                            'sequence of ints, got {!r}'.format(shape))
        if s < 0:
            raise ValueError('generate_array: shape must not be negative, '
                             'got {!r}'.format(shape))
        return int(s)

    if isinstance(shape, numbers.Integral) or \
            (hasattr(shape, 'ndim') and shape.ndim == 0):
        return (dim(shape),)
    if not hasattr(shape, '__iter__') or isinstance(shape, (str, bytes)):
        raise TypeError('generate_array: shape must be an int or a '
                        'sequence of ints, got {!r}'.format(shape))
    return tuple(dim(s) for s in shape)


def generate_array(initializer, shape, xp, dtype=None, device=None):
    """An array made by ``initializer``.

    Args:
        initializer: a callable filling an array in place.
        shape (int or tuple of ints): the shape (NumPy integers too).
        xp: the array module of the array.
        dtype: its dtype; None takes the initializer's ``dtype`` attribute,
            else the default dtype (``chainer_core.get_dtype()``, float16
            under ``mixed16``).
        device: the device to make it on (its ``xp`` must be ``xp``).

    Returns:
        the filled array.
    """
    dtype_attr = getattr(initializer, 'dtype', None)
    if dtype is not None and dtype_attr is not None and \
            numpy.dtype(dtype) != numpy.dtype(dtype_attr):
        raise ValueError('dtype {} differs from the initializer dtype {}'
                         .format(dtype, dtype_attr))
    # `is None`, not `or`: with NumPy 1.x a numpy.dtype is falsy (it has no
    # fields), so `dtype or ...` silently fell back to the default.
    dtype = get_dtype(dtype if dtype is not None else dtype_attr)
    if device is not None:
        from chainer_core._runtime.host import get_device
        device = get_device(device)
    if device is not None and device.xp is not xp:
        raise ValueError('generate_array: xp {} does not match device {}'
                         .format(getattr(xp, '__name__', xp), device))
    array = xp.empty(_as_shape(shape), dtype=dtype)
    initializer(array)
    return array
