import numpy

from chainer_cv.utils.testing._require import require, require_array


def assert_is_bbox(bbox, size=None):
    """Check that ``bbox`` holds bounding boxes as ChainerCV defines them.

    A ``float32`` :class:`numpy.ndarray` of shape :math:`(R, 4)`,
    :math:`(y_{min}, x_{min}, y_{max}, x_{max})` with minima not above
    maxima, and inside an image of ``size`` when it is given.

    Args:
        bbox: The value to check.
        size (tuple): ``(H, W)`` of the image, or :obj:`None`.

    Raises:
        AssertionError: ``bbox`` is not such an array.

    .. admonition:: Example

        >>> assert_is_bbox(numpy.array([[0, 0, 2, 3]], numpy.float32), (4, 4))
    """
    require_array(bbox, 'bbox', numpy.float32, ndim=2)
    require(bbox.shape[1] == 4, 'bbox must have shape (R, 4); got {}',
            bbox.shape)
    if not len(bbox):
        return
    require((bbox[:, :2] <= bbox[:, 2:]).all(),
            'bbox must have y_min <= y_max and x_min <= x_max')
    if size is not None:
        require((bbox[:, :2] >= 0).all() and
                (bbox[:, 2:] <= numpy.asarray(size)).all(),
                'bbox must lie inside an image of size {}', tuple(size))
