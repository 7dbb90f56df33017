import numpy

from chainer_cv.utils._checks import check_bbox, to_device_of, to_host


def _greedy_nms(bbox, thresh, order, limit):
    """Indices kept by greedy NMS over ``bbox`` (NumPy) visited in ``order``.
    """
    area = (bbox[:, 2] - bbox[:, 0]) * (bbox[:, 3] - bbox[:, 1])
    suppressed = numpy.zeros(len(bbox), dtype=bool)
    keep = []
    for i in order:
        if suppressed[i]:
            continue
        keep.append(i)
        if limit is not None and len(keep) >= limit:
            break
        top_left = numpy.maximum(bbox[i, :2], bbox[:, :2])
        bottom_right = numpy.minimum(bbox[i, 2:], bbox[:, 2:])
        extent = numpy.maximum(bottom_right - top_left, 0)
        inter = extent[:, 0] * extent[:, 1]
        union = area[i] + area - inter
        iou = inter / numpy.where(union > 0, union, 1)
        suppressed |= iou >= thresh
    return numpy.asarray(keep, dtype=numpy.int32)


def _order(score, n, func):
    if score is None:
        return numpy.arange(n)
    score = to_host(score)
    if score.shape != (n,):
        raise ValueError('{}: score must have shape ({},) to match bbox; '
                         'got shape {}'.format(func, n, score.shape))
    # A stable sort keeps equal scores in input order, so results are
    # reproducible.
    return numpy.argsort(-score, kind='stable')


def non_maximum_suppression(bbox, thresh, score=None, limit=None):
    """Suppress bounding boxes that overlap a higher-scoring one.

    Greedy NMS: boxes are visited from the highest score down; a box is
    kept unless its IoU with an already kept box is at least ``thresh``.
    Without ``score`` the boxes are visited in their given order. Works
    on NumPy arrays and on any chainer-core device's arrays (the
    suppression itself runs on the host); the indices come back on the
    boxes' device.

    Args:
        bbox (array): Boxes of shape :math:`(R, 4)`,
            :math:`(y_{min}, x_{min}, y_{max}, x_{max})`.
        thresh (float): The IoU at or above which a box is suppressed.
        score (array): Scores of shape :math:`(R,)`, or :obj:`None`.
        limit (int): The most boxes to keep, or :obj:`None` for no limit.

    Returns:
        array: ``int32`` indices of the kept boxes, highest score first.

    .. admonition:: Example

        >>> bbox = numpy.array([[0, 0, 10, 10], [1, 1, 10, 10],
        ...                     [20, 20, 30, 30]], numpy.float32)
        >>> score = numpy.array([0.5, 0.9, 0.1], numpy.float32)
        >>> non_maximum_suppression(bbox, 0.5, score)
        array([1, 2], dtype=int32)
    """
    check_bbox(bbox, 'non_maximum_suppression')
    host = to_host(bbox).astype(numpy.float64)
    order = _order(score, len(host), 'non_maximum_suppression')
    return to_device_of(_greedy_nms(host, thresh, order, limit), bbox)


def non_maximum_suppression_batched(bbox, thresh, label, score=None,
                                    limit=None):
    """Class-aware NMS: boxes suppress only boxes of the same label.

    The usual last step of a multi-class detector, done in one call instead
    of one :func:`non_maximum_suppression` per class. Boxes of different
    labels never suppress each other; among boxes of one label the rule is
    that of :func:`non_maximum_suppression`. ``limit`` bounds the total
    over all labels, keeping the highest scores.

    Args:
        bbox (array): Boxes of shape :math:`(R, 4)`.
        thresh (float): The IoU at or above which a box is suppressed.
        label (array): Integer labels of shape :math:`(R,)`.
        score (array): Scores of shape :math:`(R,)`, or :obj:`None` to use
            the given order.
        limit (int): The most boxes to keep in all, or :obj:`None`.

    Returns:
        array: ``int32`` indices of the kept boxes, highest score first
        across all labels.

    .. admonition:: Example

        >>> bbox = numpy.array([[0, 0, 10, 10], [0, 0, 10, 10]],
        ...                    numpy.float32)
        >>> non_maximum_suppression_batched(
        ...     bbox, 0.5, label=numpy.array([0, 1]),
        ...     score=numpy.array([0.9, 0.8]))
        array([0, 1], dtype=int32)
    """
    check_bbox(bbox, 'non_maximum_suppression_batched')
    host = to_host(bbox).astype(numpy.float64)
    label = to_host(label)
    if label.shape != (len(host),):
        raise ValueError(
            'non_maximum_suppression_batched: label must have shape ({},) '
            'to match bbox; got shape {}'.format(len(host), label.shape))
    if len(host):
        # Moving each label's boxes to a region of its own makes boxes of
        # different labels disjoint, so one greedy pass handles all labels.
        span = host.max() - min(host.min(), 0) + 1
        host = host + (label.astype(numpy.float64) * span)[:, None]
    order = _order(score, len(host), 'non_maximum_suppression_batched')
    return to_device_of(_greedy_nms(host, thresh, order, limit), bbox)
