"""Argument checks shared by chainer_cv.utils and chainer_cv.transforms.

Every message names the function, the argument, what was expected and what
was given, so a wrong layout is caught where it enters rather than as an
obscure broadcasting error several calls later.
"""
import numpy


class BBoxShapeError(ValueError, IndexError):
    """Bounding boxes whose shape is not :math:`(R, 4)`.

    An :class:`IndexError` as well, because ChainerCV raises that for boxes
    whose last axis is not 4 and code written for it catches it.
    """


def _shape(x):
    return tuple(getattr(x, 'shape', ()))


def check_image(img, func, arg='img'):
    """Raise :class:`ValueError` unless ``img`` is a CHW array.

    Boolean arrays are masks (:math:`(R, H, W)`), whose first axis is a
    count, so the HWC heuristic is not applied to them.
    """
    shape = _shape(img)
    if len(shape) == 2:
        raise ValueError(
            '{}: {} must be a CHW array; got a 2-D array of shape {} '
            '(a grayscale image needs its channel axis: img[None] has '
            'shape (1, H, W))'.format(func, arg, shape))
    if len(shape) != 3:
        raise ValueError('{}: {} must be a CHW array of 3 axes; got shape {}'
                         .format(func, arg, shape))
    if img.dtype != numpy.bool_ and shape[2] in (3, 4) \
            and shape[0] not in (1, 3):
        raise ValueError(
            '{}: {} must be CHW (channels first); got shape {}, which looks '
            'HWC: transpose it with img.transpose(2, 0, 1)'
            .format(func, arg, shape))


def check_bbox(bbox, func, arg='bbox'):
    """Raise unless ``bbox`` is :math:`(R, 4)` with ``min <= max``."""
    shape = _shape(bbox)
    if len(shape) != 2 or shape[1] != 4:
        raise BBoxShapeError(
            '{}: {} must have shape (R, 4) as (y_min, x_min, y_max, x_max); '
            'got shape {}'.format(func, arg, shape))
    if shape[0] and bool((bbox[:, 2:] < bbox[:, :2]).any()):
        host = to_host(bbox)
        bad = numpy.flatnonzero((host[:, 2:] < host[:, :2]).any(axis=1))
        raise ValueError(
            '{}: {} must satisfy y_min <= y_max and x_min <= x_max; boxes {} '
            'do not (first: {})'.format(func, arg, bad.tolist(),
                                        host[bad[0]].tolist()))


def check_mask(mask, func, arg='mask'):
    """Raise :class:`ValueError` unless ``mask`` has shape (R, H, W)."""
    shape = _shape(mask)
    if len(shape) != 3:
        raise ValueError('{}: {} must have shape (R, H, W); got shape {}'
                         .format(func, arg, shape))


def check_size(size, func, arg='size'):
    """Return ``size`` as ``(H, W)`` ints; raise unless it is two ints."""
    try:
        H, W = size
        return int(H), int(W)
    except (TypeError, ValueError):
        raise ValueError('{}: {} must be a pair (H, W); got {!r}'
                         .format(func, arg, size)) from None


def to_host(x):
    """``x`` as a NumPy array (a copy only when it lives on a device)."""
    if isinstance(x, numpy.ndarray):
        return x
    from chainer_core.backend import CpuDevice
    return CpuDevice().send(x)


def to_device_of(x, like):
    """``x`` (NumPy) sent to the device ``like`` lives on."""
    if isinstance(like, numpy.ndarray):
        return x
    from chainer_core.backend import get_device_from_array
    return get_device_from_array(like).send(x)
