import numpy

from chainer_cv.utils._checks import check_bbox, check_size


def resize_bbox(bbox, in_size, out_size):
    """Scale bounding boxes as :func:`~chainer_cv.transforms.resize`
    scales their image.

    Args:
        bbox (numpy.ndarray): Boxes of shape :math:`(R, 4)`.
        in_size (tuple): ``(H, W)`` of the image before resizing.
        out_size (tuple): ``(H, W)`` after resizing.

    Returns:
        numpy.ndarray: The boxes (a new array).

    .. admonition:: Example

        >>> bbox = numpy.array([[1, 2, 3, 4]], numpy.float32)
        >>> resize_bbox(bbox, (10, 10), (20, 5))
        array([[2., 1., 6., 2.]], dtype=float32)
    """
    check_bbox(bbox, 'resize_bbox')
    in_H, in_W = check_size(in_size, 'resize_bbox', 'in_size')
    out_H, out_W = check_size(out_size, 'resize_bbox', 'out_size')
    scale = numpy.array((out_H / in_H, out_W / in_W) * 2)
    return (bbox * scale).astype(bbox.dtype, copy=False)
