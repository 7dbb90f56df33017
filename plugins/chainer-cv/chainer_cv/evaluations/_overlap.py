"""Pairwise overlaps of boxes and of masks.

Each function returns ``(intersection, area_a, area_b)`` rather than the
IoU itself: COCO measures a prediction against a crowd region by the
intersection over the prediction's own area, and both IoUs are cheap to
form from these three.
"""
import numpy


def bbox_overlap(bbox_a, bbox_b, offset=0.):
    """Intersections ``(N, K)`` and areas of ``(y_min, x_min, y_max, x_max)``
    boxes.

    ``offset`` is added to each side length: PASCAL VOC counts the pixels
    of integer boxes, so a box from 0 to 9 is 10 pixels wide there.
    """
    top_left = numpy.maximum(bbox_a[:, None, :2], bbox_b[None, :, :2])
    bottom_right = numpy.minimum(bbox_a[:, None, 2:], bbox_b[None, :, 2:])
    sides = numpy.clip(bottom_right - top_left + offset, 0, None)
    intersection = sides.prod(axis=2)
    return intersection, bbox_area(bbox_a, offset), bbox_area(bbox_b, offset)


def bbox_area(bbox, offset=0.):
    return numpy.clip(bbox[:, 2:] - bbox[:, :2] + offset, 0, None).prod(axis=1)


def mask_overlap(mask_a, mask_b):
    """Intersections ``(N, K)`` and areas, in pixels, of bool masks."""
    flat_a = _flat(mask_a).astype(numpy.float64)
    flat_b = _flat(mask_b).astype(numpy.float64)
    return flat_a @ flat_b.T, flat_a.sum(axis=1), flat_b.sum(axis=1)


def mask_area(mask):
    return _flat(mask).sum(axis=1).astype(numpy.float64)


def _flat(mask):
    # Explicit sizes: reshape cannot infer -1 when there is no mask.
    return mask.reshape(mask.shape[0], mask.shape[1] * mask.shape[2])


def iou(intersection, area_a, area_b):
    """IoU from :func:`bbox_overlap` or :func:`mask_overlap`; two empty
    regions do not overlap (IoU 0)."""
    union = area_a[:, None] + area_b[None, :] - intersection
    with numpy.errstate(divide='ignore', invalid='ignore'):
        result = intersection / union
    return numpy.where(union > 0, result, 0.)
