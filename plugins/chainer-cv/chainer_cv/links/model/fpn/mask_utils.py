"""Between image masks and the fixed-size masks (segms) of the mask head.

A segm covers its box grown by one segm cell on each side, where it is
zero: pasted back, a mask fades out at the border of the segm instead of
ending on the box's edge (Detectron's convention, which the trained
weights follow)."""
import numpy

import chainer_core as chainer
import chainer_core.functions as F

from chainer_cv.transforms import resize


def _padded_boxes(bbox, segm_size):
    # The box grown by one cell of a segm_size grid on each side, rounded
    # to whole pixels; computed in float32, as ChainerCV does, so that
    # halves round the same way.
    bbox = numpy.asarray(bbox, numpy.float32).reshape((-1, 4))
    scale = numpy.float32((segm_size + 2) / segm_size)
    centre = (bbox[:, :2] + bbox[:, 2:]) * numpy.float32(.5)
    half = (bbox[:, 2:] - bbox[:, :2]) * numpy.float32(.5) * scale
    return numpy.round(numpy.concatenate(
        (centre - half, centre + half), axis=1)).astype(numpy.int64)


def _resize_bilinear(img, size):
    """``img`` (H, W) resized bilinearly between pixel centres, without
    antialiasing: OpenCV's linear resampling, which ChainerCV uses to
    paste masks (Pillow's, elsewhere, smooths when shrinking)."""
    with chainer.no_backprop_mode():
        return F.resize_images(img[None, None].astype(numpy.float32), size,
                               align_corners=False).array[0, 0]


def segm_to_mask(segm, bbox, size):
    """Paste segms into masks of the image.

    Args:
        segm (numpy.ndarray): Foreground probabilities of each box,
            :math:`(R, M, M)`.
        bbox (numpy.ndarray): The boxes, :math:`(R, 4)`,
            :math:`(y_{min}, x_{min}, y_{max}, x_{max})`, in image pixels.
        size (tuple of ints): ``(H, W)`` of the image.

    Returns:
        numpy.ndarray: :math:`(R, H, W)` ``bool``: the pixels whose
        resized probability exceeds 0.5.
    """
    H, W = size
    segm = numpy.asarray(segm, numpy.float32)
    mask = numpy.zeros((len(segm), H, W), dtype=bool)
    if len(segm) == 0:
        return mask
    for i, (y0, x0, y1, x1) in enumerate(
            _padded_boxes(bbox, segm.shape[1])):
        top, left = max(y0, 0), max(x0, 0)
        bottom, right = min(y1, H), min(x1, W)
        if bottom <= top or right <= left:
            continue
        padded = numpy.pad(segm[i], 1)
        box_mask = _resize_bilinear(padded, (y1 - y0, x1 - x0)) > 0.5
        mask[i, top:bottom, left:right] = \
            box_mask[top - y0:bottom - y0, left - x0:right - x0]
    return mask


def mask_to_segm(mask, bbox, segm_size, index=None):
    """The segms of boxes: the inverse of :func:`segm_to_mask`.

    Args:
        mask (numpy.ndarray): Image masks, :math:`(R', H, W)`.
        bbox (numpy.ndarray): Boxes, :math:`(R, 4)`, in image pixels.
        segm_size (int): :math:`M`.
        index (numpy.ndarray): The mask of each box, :math:`(R,)`
            (default: the :math:`i`-th box takes the :math:`i`-th mask).

    Returns:
        numpy.ndarray: :math:`(R, M, M)` ``float32`` of 0 and 1.
    """
    mask = numpy.asarray(mask)
    _, H, W = mask.shape
    bbox = numpy.asarray(bbox).reshape((-1, 4))
    if index is None:
        index = numpy.arange(len(bbox))
    segm = numpy.zeros((len(bbox), segm_size, segm_size), numpy.float32)
    for i, (y0, x0, y1, x1) in enumerate(_padded_boxes(bbox, segm_size)):
        top, left = max(y0, 0), max(x0, 0)
        bottom, right = min(y1, H), min(x1, W)
        if bottom <= top or right <= left:
            continue
        crop = numpy.zeros((y1 - y0, x1 - x0), numpy.float32)
        crop[top - y0:bottom - y0, left - x0:right - x0] = \
            mask[index[i], top:bottom, left:right]
        resized = resize(crop[None], (segm_size + 2, segm_size + 2))[0]
        segm[i] = resized[1:-1, 1:-1] >= 0.5
    return segm
