"""Argument checks and small differentiable helpers shared by the losses."""


def check_reduce(func, reduce, allowed):
    """Raise ValueError naming ``func`` unless ``reduce`` is in ``allowed``."""
    if reduce not in allowed:
        raise ValueError('{}: reduce must be {}, got {!r}'.format(
            func, ' or '.join(repr(a) for a in allowed), reduce))


def broadcast_like(gy, shape):
    """``gy`` broadcast to ``shape`` (differentiable; no-op when equal)."""
    from chainer_core.functions.array.broadcast import broadcast_to
    if gy.shape == tuple(shape):
        return gy
    return broadcast_to(gy, shape)


def expand_to(gy, shape, axis):
    """``gy`` with ``axis`` re-inserted (size 1) and broadcast to ``shape``:
    the gradient of a sum over ``axis``."""
    from chainer_core.functions.array.reshape import reshape
    kept = list(gy.shape)
    kept.insert(axis, 1)
    return broadcast_like(reshape(gy, tuple(kept)), shape)


def float_type(dtype):
    """The dtype a kernel computes in: float16 is widened to float32."""
    import numpy
    dtype = numpy.dtype(dtype)
    return numpy.dtype(numpy.float32) if dtype.itemsize < 4 else dtype


def array_module(a):
    """The array namespace of ``a`` (an array or a Variable)."""
    from chainer_core.backend import get_array_module
    return get_array_module(a)
