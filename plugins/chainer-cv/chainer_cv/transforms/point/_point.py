"""Shared by the point transforms: points are an array of shape (..., 2),
e.g. (K, 2) or (R, K, 2), or a list of such arrays (one per instance,
ChainerCV's form for instances with different numbers of points)."""
import numpy


def map_points(point, func, name):
    """Apply ``func`` to the ``(y, x)`` array(s) of ``point``."""
    if isinstance(point, numpy.ndarray):
        _check(point, name, 'point')
        return func(point)
    out = []
    for i, p in enumerate(point):
        _check(p, name, 'point[{}]'.format(i))
        out.append(func(p))
    return out


def _check(point, name, arg):
    if point.ndim < 1 or point.shape[-1] != 2:
        raise ValueError('{}: {} must have shape (..., 2) as (y, x); got '
                         'shape {}'.format(name, arg, point.shape))
