"""Small helpers shared by ops."""
import numpy


def force_array(x, dtype=None):
    """``x`` as an array: NumPy reductions may return scalars."""
    if isinstance(x, numpy.generic):
        return numpy.asarray(x, dtype=dtype)
    if dtype is not None and x.dtype != dtype:
        return x.astype(dtype, copy=False)
    return x


def force_type(dtype, value):
    if numpy.isscalar(value):
        return dtype.type(value)
    if value.dtype != dtype:
        return value.astype(dtype, copy=False)
    return value


def size_of_shape(shape):
    size = 1
    for s in shape:
        size *= s
    return size


from chainer_core.utils.sparse import CooMatrix, get_order, to_coo  # NOQA
from chainer_core.utils.walker_alias import WalkerAlias  # NOQA
