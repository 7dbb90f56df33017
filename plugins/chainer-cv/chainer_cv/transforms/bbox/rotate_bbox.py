import numpy

from chainer_cv.transforms.image.rotate import rotation
from chainer_cv.utils._checks import check_bbox, check_size


def rotate_bbox(bbox, angle, size, expand=True):
    """Move bounding boxes as :func:`~chainer_cv.transforms.rotate` moves
    their image.

    A multiple of 90 degrees maps boxes to boxes exactly. For other angles
    the result is the smallest upright box around the rotated box (the
    rotated box is not upright), clipped to the rotated image.

    Args:
        bbox (numpy.ndarray): Boxes of shape :math:`(R, 4)`.
        angle (float): The rotation in degrees, counter-clockwise.
        size (tuple): ``(H, W)`` of the image before the rotation.
        expand (bool): Whether the image was rotated with ``expand`` (its
            default, and the only behaviour of ChainerCV).

    Returns:
        numpy.ndarray: The boxes in the rotated image's coordinates.

    .. admonition:: Example

        >>> bbox = numpy.array([[1, 2, 3, 4]], numpy.float32)
        >>> rotate_bbox(bbox, 90, (10, 20))
        array([[16.,  1., 18.,  3.]], dtype=float32)
    """
    check_bbox(bbox, 'rotate_bbox')
    H, W = check_size(size, 'rotate_bbox')
    cos, sin, (out_H, out_W) = rotation(angle, (H, W), expand)
    corner_y = bbox[:, [0, 0, 2, 2]] - H / 2
    corner_x = bbox[:, [1, 3, 1, 3]] - W / 2
    y = -sin * corner_x + cos * corner_y + out_H / 2
    x = cos * corner_x + sin * corner_y + out_W / 2
    out = numpy.stack((y.min(axis=1), x.min(axis=1),
                       y.max(axis=1), x.max(axis=1)), axis=1)
    out = numpy.clip(out, 0, (out_H, out_W, out_H, out_W))
    return out.astype(bbox.dtype, copy=False)
