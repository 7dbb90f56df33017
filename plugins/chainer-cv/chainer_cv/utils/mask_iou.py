import numpy

from chainer_core.backend import get_array_module

from chainer_cv.utils._checks import check_mask


def mask_iou(mask_a, mask_b):
    """Intersection over union of every pair of masks.

    Works on NumPy arrays and on any chainer-core device's arrays. A pair
    of empty masks has IoU 0.

    Args:
        mask_a (array): Boolean masks of shape :math:`(N, H, W)`.
        mask_b (array): Boolean masks of shape :math:`(K, H, W)`.

    Returns:
        array: ``float32`` IoUs of shape :math:`(N, K)`.

    .. admonition:: Example

        >>> a = numpy.zeros((1, 4, 4), bool); a[0, :2] = True
        >>> b = numpy.ones((1, 4, 4), bool)
        >>> mask_iou(a, b)
        array([[0.5]], dtype=float32)
    """
    check_mask(mask_a, 'mask_iou', 'mask_a')
    check_mask(mask_b, 'mask_iou', 'mask_b')
    if mask_a.shape[1:] != mask_b.shape[1:]:
        raise IndexError(
            'mask_iou: mask_a and mask_b must have the same (H, W); got {} '
            'and {}'.format(mask_a.shape[1:], mask_b.shape[1:]))
    xp = get_array_module(mask_a, mask_b)
    # Pixel counts stay exact in float64 (float32 would round past 2**24).
    n_pixel = mask_a.shape[1] * mask_a.shape[2]
    a = mask_a.reshape(len(mask_a), n_pixel).astype(numpy.float64)
    b = mask_b.reshape(len(mask_b), n_pixel).astype(numpy.float64)
    inter = a @ b.T
    union = a.sum(axis=1)[:, None] + b.sum(axis=1)[None, :] - inter
    iou = inter / xp.where(union > 0, union, 1)
    return iou.astype(numpy.float32)
