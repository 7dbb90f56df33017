import numpy

from chainer_cv.utils._checks import check_bbox


def _bounds(s):
    """``(start, stop)`` of a slice of non-negative bounds, :obj:`None`
    meaning unbounded."""
    if s is None:
        return 0, numpy.inf
    return (0 if s.start is None else s.start,
            numpy.inf if s.stop is None else s.stop)


def crop_bbox(bbox, y_slice=None, x_slice=None, allow_outside_center=True,
              return_param=False):
    """Move bounding boxes into the frame of a crop, clipping them to it.

    The counterpart for boxes of ``img[:, y_slice, x_slice]``. Each box is
    clipped to the crop and moved to its coordinates; boxes left with no
    area are removed, and so are boxes whose centre lies outside the crop
    unless ``allow_outside_center``.

    Args:
        bbox (numpy.ndarray): Boxes of shape :math:`(R, 4)`,
            :math:`(y_{min}, x_{min}, y_{max}, x_{max})`.
        y_slice (slice): The rows of the crop (as for the image), or
            :obj:`None` for all.
        x_slice (slice): The columns of the crop, or :obj:`None`.
        allow_outside_center (bool): Keep boxes whose centre is outside the
            crop (clipped).
        return_param (bool): Also return which boxes were kept.

    Returns:
        numpy.ndarray or (numpy.ndarray, dict): The kept boxes,
        :math:`(R', 4)`; with ``return_param``, also a dict with

        * **index** (*numpy.ndarray*): the indices in ``bbox`` of the kept
          boxes, so that ``label[param['index']]`` keeps their labels.

    .. admonition:: Example

        >>> bbox = numpy.array([[0, 0, 10, 10], [20, 20, 30, 30]],
        ...                    numpy.float32)
        >>> out, param = crop_bbox(bbox, slice(5, 15), slice(0, 15),
        ...                        return_param=True)
        >>> out, param['index']
        (array([[ 0.,  0.,  5., 10.]], dtype=float32), array([0]))
    """
    check_bbox(bbox, 'crop_bbox')
    (top, bottom), (left, right) = _bounds(y_slice), _bounds(x_slice)
    low = numpy.array((top, left))
    high = numpy.array((bottom, right))
    keep = numpy.ones(len(bbox), dtype=bool)
    if not allow_outside_center:
        center = (bbox[:, :2] + bbox[:, 2:]) / 2
        keep &= ((low <= center) & (center < high)).all(axis=1)
    out = numpy.concatenate((numpy.maximum(bbox[:, :2], low) - low,
                             numpy.minimum(bbox[:, 2:], high) - low), axis=1)
    keep &= (out[:, :2] < out[:, 2:]).all(axis=1)
    out = out[keep].astype(bbox.dtype, copy=False)
    if return_param:
        return out, {'index': numpy.flatnonzero(keep)}
    return out
