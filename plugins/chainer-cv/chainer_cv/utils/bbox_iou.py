from chainer_core.backend import get_array_module

from chainer_cv.utils._checks import check_bbox


def bbox_iou(bbox_a, bbox_b):
    """Intersection over union of every pair of bounding boxes.

    Boxes are :math:`(y_{min}, x_{min}, y_{max}, x_{max})` in continuous
    coordinates, so a box's area is
    :math:`(y_{max} - y_{min}) (x_{max} - x_{min})`. Works on NumPy arrays
    and on the arrays of any chainer-core device (the namespace comes from
    :func:`chainer_core.backend.get_array_module`); the result lives where
    the inputs do. A pair whose union is empty has IoU 0.

    Args:
        bbox_a (array): Boxes of shape :math:`(N, 4)`.
        bbox_b (array): Boxes of shape :math:`(K, 4)`, same array type.

    Returns:
        array: IoUs of shape :math:`(N, K)`; element :math:`(n, k)` is the
        IoU of ``bbox_a[n]`` and ``bbox_b[k]``.

    Raises:
        IndexError, ValueError: A last axis that is not 4 (the error is
            both), or a box with ``y_max < y_min`` or ``x_max < x_min``.

    .. admonition:: Example

        >>> a = numpy.array([[0, 0, 10, 10]], numpy.float32)
        >>> b = numpy.array([[0, 0, 10, 10], [5, 5, 15, 15]], numpy.float32)
        >>> bbox_iou(a, b)
        array([[1.        , 0.14285715]], dtype=float32)
    """
    check_bbox(bbox_a, 'bbox_iou', 'bbox_a')
    check_bbox(bbox_b, 'bbox_iou', 'bbox_b')
    xp = get_array_module(bbox_a, bbox_b)
    top_left = xp.maximum(bbox_a[:, None, :2], bbox_b[None, :, :2])
    bottom_right = xp.minimum(bbox_a[:, None, 2:], bbox_b[None, :, 2:])
    extent = xp.maximum(bottom_right - top_left, 0)
    inter = extent[:, :, 0] * extent[:, :, 1]
    area_a = (bbox_a[:, 2] - bbox_a[:, 0]) * (bbox_a[:, 3] - bbox_a[:, 1])
    area_b = (bbox_b[:, 2] - bbox_b[:, 0]) * (bbox_b[:, 3] - bbox_b[:, 1])
    union = area_a[:, None] + area_b[None, :] - inter
    # An empty union (two points) would be 0 / 0; its IoU is 0 by convention.
    return inter / xp.where(union > 0, union, 1)
