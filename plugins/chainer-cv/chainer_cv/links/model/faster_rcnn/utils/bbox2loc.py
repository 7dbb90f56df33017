import numpy

from chainer_core.backend import get_array_module


def bbox2loc(src_bbox, dst_bbox):
    """Offsets and scales that move each source box onto its destination.

    With centres :math:`(y, x)`, heights :math:`h` and widths :math:`w`,
    the offset of a source box to a destination box (hatted) is
    :math:`t_y = (\\hat{y} - y) / h`, :math:`t_x = (\\hat{x} - x) / w`,
    :math:`t_h = \\log(\\hat{h} / h)`, :math:`t_w = \\log(\\hat{w} / w)`.
    :func:`loc2bbox` is its inverse.

    Args:
        src_bbox (array): Source boxes, :math:`(R, 4)`,
            :math:`(y_{min}, x_{min}, y_{max}, x_{max})`.
        dst_bbox (array): Destination boxes, :math:`(R, 4)`.

    Returns:
        array: :math:`(R, 4)`, :math:`(t_y, t_x, t_h, t_w)` per box.
    """
    xp = get_array_module(src_bbox)
    height = src_bbox[:, 2] - src_bbox[:, 0]
    width = src_bbox[:, 3] - src_bbox[:, 1]
    ctr_y = src_bbox[:, 0] + 0.5 * height
    ctr_x = src_bbox[:, 1] + 0.5 * width
    dst_height = dst_bbox[:, 2] - dst_bbox[:, 0]
    dst_width = dst_bbox[:, 3] - dst_bbox[:, 1]
    dst_ctr_y = dst_bbox[:, 0] + 0.5 * dst_height
    dst_ctr_x = dst_bbox[:, 1] + 0.5 * dst_width

    # A degenerate source box would divide by zero; the machine epsilon
    # keeps the offsets finite, as ChainerCV does.
    eps = numpy.finfo(numpy.dtype(height.dtype)).eps
    height = xp.maximum(height, eps)
    width = xp.maximum(width, eps)

    return xp.stack(((dst_ctr_y - ctr_y) / height,
                     (dst_ctr_x - ctr_x) / width,
                     xp.log(dst_height / height),
                     xp.log(dst_width / width)), axis=1)
