import numpy
import PIL.Image

from chainer_cv.utils._checks import (check_bbox, check_mask, to_device_of,
                                      to_host)


def scale_mask(mask, bbox, size):
    """Resize masks so that their shorter side is ``size``, box by box.

    Equivalent to resizing the whole masks with nearest-neighbour
    interpolation, but only the region inside each mask's bounding box is
    resized, which is much faster for the small objects of instance
    segmentation. The output size is that of
    :func:`chainer_cv.transforms.scale`.

    Args:
        mask (array): Boolean masks of shape :math:`(R, H, W)`.
        bbox (array): Boxes of shape :math:`(R, 4)` around the masks' True
            pixels, as :func:`chainer_cv.utils.mask_to_bbox` gives.
        size (int): The length of the shorter side after scaling.

    Returns:
        array: Boolean masks of shape :math:`(R, H', W')` on the masks'
        device.

    .. admonition:: Example

        >>> mask = numpy.zeros((1, 4, 8), bool); mask[0, 1:3, 2:4] = True
        >>> scale_mask(mask, mask_to_bbox(mask), 8).shape
        (1, 8, 16)
    """
    # A module-level import would be circular: transforms import utils.
    from chainer_cv.transforms.image.resize import resize
    from chainer_cv.transforms.image.scale import scaled_size

    check_mask(mask, 'scale_mask')
    check_bbox(bbox, 'scale_mask')
    host_mask = to_host(mask)
    host_bbox = to_host(bbox)
    R, H, W = host_mask.shape
    out_H, out_W = scaled_size((H, W), size, fit_short=True)
    scale = numpy.array((out_H / H, out_W / W) * 2)
    src = numpy.concatenate((numpy.floor(host_bbox[:, :2]),
                             numpy.ceil(host_bbox[:, 2:])), axis=1)
    src = numpy.clip(src, 0, (H, W, H, W)).astype(numpy.int64)
    dst = src * scale
    dst = numpy.concatenate((numpy.floor(dst[:, :2]), numpy.ceil(dst[:, 2:])),
                            axis=1)
    dst = numpy.clip(dst, 0, (out_H, out_W, out_H, out_W)).astype(numpy.int64)
    out = numpy.zeros((R, out_H, out_W), dtype=bool)
    for i in range(R):
        y0, x0, y1, x1 = src[i]
        v0, u0, v1, u1 = dst[i]
        if y1 <= y0 or x1 <= x0 or v1 <= v0 or u1 <= u0:
            continue
        region = host_mask[i:i + 1, y0:y1, x0:x1]
        out[i, v0:v1, u0:u1] = resize(region, (v1 - v0, u1 - u0),
                                      PIL.Image.NEAREST)[0]
    return to_device_of(out, mask)
