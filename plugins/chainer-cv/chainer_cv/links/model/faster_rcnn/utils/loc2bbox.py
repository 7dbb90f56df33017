from chainer_core.backend import get_array_module


def loc2bbox(src_bbox, loc):
    """Decode boxes from source boxes and the offsets of :func:`bbox2loc`.

    Each row of ``loc`` may hold several offsets (``(R, 4K)``, e.g. one
    per class); each is applied to the row's source box.

    Args:
        src_bbox (array): Source boxes, :math:`(R, 4)`,
            :math:`(y_{min}, x_{min}, y_{max}, x_{max})`.
        loc (array): Offsets :math:`(t_y, t_x, t_h, t_w)`, :math:`(R, 4K)`.

    Returns:
        array: Decoded boxes, :math:`(R, 4K)`, of ``loc``'s dtype.
    """
    xp = get_array_module(src_bbox)
    if src_bbox.shape[0] == 0:
        return xp.zeros((0, 4), dtype=loc.dtype)
    src_bbox = src_bbox.astype(loc.dtype, copy=False)
    height = (src_bbox[:, 2] - src_bbox[:, 0])[:, None]
    width = (src_bbox[:, 3] - src_bbox[:, 1])[:, None]
    ctr_y = src_bbox[:, 0:1] + 0.5 * height
    ctr_x = src_bbox[:, 1:2] + 0.5 * width

    dst_ctr_y = loc[:, 0::4] * height + ctr_y
    dst_ctr_x = loc[:, 1::4] * width + ctr_x
    dst_half_h = 0.5 * xp.exp(loc[:, 2::4]) * height
    dst_half_w = 0.5 * xp.exp(loc[:, 3::4]) * width

    corners = xp.stack((dst_ctr_y - dst_half_h, dst_ctr_x - dst_half_w,
                        dst_ctr_y + dst_half_h, dst_ctr_x + dst_half_w),
                       axis=2)
    return corners.reshape((loc.shape[0], -1)).astype(loc.dtype, copy=False)
