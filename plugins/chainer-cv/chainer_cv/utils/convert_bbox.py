from chainer_core.backend import get_array_module

# Each format as its four columns, in terms of the edges
# (y_min, x_min, y_max, x_max) and the derived height, width and centre.
_FORMATS = ('yxyx', 'xyxy', 'yxhw', 'xywh', 'cycxhw', 'cxcywh')


def _to_edges(col, fmt):
    """``(y_min, x_min, y_max, x_max)`` columns from ``fmt``'s columns."""
    a, b, c, d = col
    if fmt == 'yxyx':
        return a, b, c, d
    if fmt == 'xyxy':
        return b, a, d, c
    if fmt == 'yxhw':
        return a, b, a + c, b + d
    if fmt == 'xywh':
        return b, a, b + d, a + c
    if fmt == 'cycxhw':
        return a - c / 2, b - d / 2, a + c / 2, b + d / 2
    return b - d / 2, a - c / 2, b + d / 2, a + c / 2


def _from_edges(y0, x0, y1, x1, fmt):
    h, w = y1 - y0, x1 - x0
    return {
        'yxyx': (y0, x0, y1, x1),
        'xyxy': (x0, y0, x1, y1),
        'yxhw': (y0, x0, h, w),
        'xywh': (x0, y0, w, h),
        'cycxhw': ((y0 + y1) / 2, (x0 + x1) / 2, h, w),
        'cxcywh': ((x0 + x1) / 2, (y0 + y1) / 2, w, h),
    }[fmt]


def convert_bbox(bbox, src='yxyx', dst='xywh'):
    """Convert bounding boxes between coordinate formats.

    ChainerCV's own format is ``'yxyx'``. The formats, by their columns:

    * ``'yxyx'``: ``(y_min, x_min, y_max, x_max)`` (ChainerCV)
    * ``'xyxy'``: ``(x_min, y_min, x_max, y_max)`` (Pascal VOC files)
    * ``'yxhw'``: ``(y_min, x_min, height, width)``
    * ``'xywh'``: ``(x_min, y_min, width, height)`` (COCO)
    * ``'cycxhw'``: ``(y_center, x_center, height, width)``
    * ``'cxcywh'``: ``(x_center, y_center, width, height)`` (YOLO)

    Works on NumPy arrays and on any chainer-core device's arrays.

    Args:
        bbox (array): Boxes of shape :math:`(..., 4)` in format ``src``.
        src (str): The format of ``bbox``.
        dst (str): The format to convert to.

    Returns:
        array: The boxes in format ``dst``, same shape and dtype.

    .. admonition:: Example

        >>> bbox = numpy.array([[10, 20, 30, 60]], numpy.float32)
        >>> convert_bbox(bbox, 'yxyx', 'xywh')
        array([[20., 10., 40., 20.]], dtype=float32)
    """
    for name, fmt in (('src', src), ('dst', dst)):
        if fmt not in _FORMATS:
            raise ValueError('convert_bbox: {} must be one of {}; got {!r}'
                             .format(name, ', '.join(_FORMATS), fmt))
    shape = tuple(getattr(bbox, 'shape', ()))
    if not shape or shape[-1] != 4:
        raise ValueError('convert_bbox: bbox must have shape (..., 4); got '
                         'shape {}'.format(shape))
    if src == dst:
        return bbox.copy()
    xp = get_array_module(bbox)
    edges = _to_edges([bbox[..., i] for i in range(4)], src)
    out = xp.stack(_from_edges(*edges, dst), axis=-1)
    return out.astype(bbox.dtype, copy=False)
