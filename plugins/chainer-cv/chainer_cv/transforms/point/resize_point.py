import numpy

from chainer_cv.transforms.point._point import map_points
from chainer_cv.utils._checks import check_size


def resize_point(point, in_size, out_size):
    """Scale points as :func:`~chainer_cv.transforms.resize` scales their
    image.

    Args:
        point (numpy.ndarray or list of arrays): Points :math:`(y, x)`, as
            :func:`flip_point` takes.
        in_size (tuple): ``(H, W)`` of the image before resizing.
        out_size (tuple): ``(H, W)`` after resizing.

    Returns:
        numpy.ndarray or list of arrays: The points (new arrays).

    .. admonition:: Example

        >>> resize_point(numpy.array([[1., 2.]]), (10, 10), (20, 5))
        array([[2., 1.]])
    """
    in_H, in_W = check_size(in_size, 'resize_point', 'in_size')
    out_H, out_W = check_size(out_size, 'resize_point', 'out_size')
    scale = numpy.array((out_H / in_H, out_W / in_W))
    return map_points(point, lambda p: (p * scale).astype(p.dtype),
                      'resize_point')
