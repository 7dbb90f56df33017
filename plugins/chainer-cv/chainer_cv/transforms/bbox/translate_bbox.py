import numpy

from chainer_cv.utils._checks import check_bbox


def translate_bbox(bbox, y_offset=0, x_offset=0):
    """Shift bounding boxes, e.g. after padding their image.

    Args:
        bbox (numpy.ndarray): Boxes of shape :math:`(R, 4)`.
        y_offset (float): Added to the y coordinates.
        x_offset (float): Added to the x coordinates.

    Returns:
        numpy.ndarray: The boxes (a new array).

    .. admonition:: Example

        >>> bbox = numpy.array([[1, 2, 3, 4]], numpy.float32)
        >>> translate_bbox(bbox, y_offset=10)
        array([[11.,  2., 13.,  4.]], dtype=float32)
    """
    check_bbox(bbox, 'translate_bbox')
    shift = numpy.array((y_offset, x_offset) * 2)
    return (bbox + shift).astype(bbox.dtype, copy=False)
