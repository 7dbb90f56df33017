import numpy

from chainer_core.backend import get_array_module

from chainer_cv.utils._checks import check_mask


def _extent(hit, xp):
    """First index and one past the last index of True along axis 1."""
    n = hit.shape[1]
    first = xp.argmax(hit, axis=1)
    last = n - xp.argmax(hit[:, ::-1], axis=1)
    return first, last


def mask_to_bbox(mask):
    """The tightest bounding box around each mask's True pixels.

    Pixel :math:`(y, x)` covers :math:`[y, y + 1) \\times [x, x + 1)`, so a
    single True pixel at (2, 3) gives the box ``(2, 3, 3, 4)``. An empty
    mask gives ``(0, 0, 0, 0)``. Works on NumPy arrays and on any
    chainer-core device's arrays.

    Args:
        mask (array): Boolean masks of shape :math:`(R, H, W)`.

    Returns:
        array: ``float32`` boxes of shape :math:`(R, 4)`.

    .. admonition:: Example

        >>> mask = numpy.zeros((1, 5, 5), bool); mask[0, 1:3, 2:5] = True
        >>> mask_to_bbox(mask)
        array([[1., 2., 3., 5.]], dtype=float32)
    """
    check_mask(mask, 'mask_to_bbox')
    xp = get_array_module(mask)
    rows = mask.any(axis=2)
    cols = mask.any(axis=1)
    y_min, y_max = _extent(rows, xp)
    x_min, x_max = _extent(cols, xp)
    bbox = xp.stack((y_min, x_min, y_max, x_max), axis=1)
    bbox = bbox.astype(numpy.float32)
    return bbox * rows.any(axis=1)[:, None].astype(numpy.float32)
