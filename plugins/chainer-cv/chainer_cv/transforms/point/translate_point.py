import numpy

from chainer_cv.transforms.point._point import map_points


def translate_point(point, y_offset=0, x_offset=0):
    """Shift points, e.g. after padding or cropping their image.

    Args:
        point (numpy.ndarray or list of arrays): Points :math:`(y, x)`, as
            :func:`flip_point` takes.
        y_offset (float): Added to the y coordinates.
        x_offset (float): Added to the x coordinates.

    Returns:
        numpy.ndarray or list of arrays: The points (new arrays).

    .. admonition:: Example

        >>> translate_point(numpy.array([[1., 2.]]), y_offset=-1)
        array([[0., 2.]])
    """
    shift = numpy.array((y_offset, x_offset))
    return map_points(point, lambda p: (p + shift).astype(p.dtype),
                      'translate_point')
