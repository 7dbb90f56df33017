from chainer_cv.transforms.point._point import map_points
from chainer_cv.utils._checks import check_size


def flip_point(point, size, y_flip=False, x_flip=False):
    """Move points as :func:`~chainer_cv.transforms.flip` moves their
    image.

    Coordinates are continuous, as for boxes: :math:`y` becomes
    :math:`H - y`.

    Args:
        point (numpy.ndarray or list of arrays): Points :math:`(y, x)`, an
            array of shape :math:`(..., 2)` (e.g. :math:`(R, K, 2)`) or a
            list of :math:`(K, 2)` arrays.
        size (tuple): ``(H, W)`` of the image.
        y_flip (bool): The image was flipped upside down.
        x_flip (bool): The image was flipped left to right.

    Returns:
        numpy.ndarray or list of arrays: The points (new arrays), in the
        form of ``point``.

    .. admonition:: Example

        >>> flip_point(numpy.array([[1., 2.]]), (10, 10), x_flip=True)
        array([[1., 8.]])
    """
    H, W = check_size(size, 'flip_point')

    def flip_one(p):
        p = p.copy()
        if y_flip:
            p[..., 0] = H - p[..., 0]
        if x_flip:
            p[..., 1] = W - p[..., 1]
        return p
    return map_points(point, flip_one, 'flip_point')
