import math

import numpy
import PIL.Image

from chainer_cv.transforms.image.resize import apply_per_channel
from chainer_cv.utils._checks import check_image

_INTERPOLATIONS = (PIL.Image.NEAREST, PIL.Image.BILINEAR, PIL.Image.BICUBIC)


def _snap(value):
    # Cosines of multiples of 90 degrees come out as 6e-17 rather than 0;
    # snapping keeps those rotations exact.
    return 0. if abs(value) < 1e-12 else value


def rotation(angle, size, expand):
    """``(cos, sin, out_size)`` of a counter-clockwise rotation by
    ``angle`` degrees of an image of ``size`` about its centre.

    With ``expand`` the output is just large enough for the whole rotated
    image (each side rounded up), otherwise it keeps ``size``. Shared by
    :func:`rotate` and :func:`~chainer_cv.transforms.rotate_bbox` so
    images and boxes agree.
    """
    theta = math.radians(angle)
    cos, sin = _snap(math.cos(theta)), _snap(math.sin(theta))
    H, W = size
    if not expand:
        return cos, sin, (H, W)
    out_H = abs(W * sin) + abs(H * cos)
    out_W = abs(W * cos) + abs(H * sin)
    # Round before taking the ceiling so that float noise (40.0000001) does
    # not add a pixel.
    return cos, sin, (int(math.ceil(round(out_H, 6))),
                      int(math.ceil(round(out_W, 6))))


def rotate(img, angle, expand=True, fill=0, interpolation=PIL.Image.BILINEAR):
    """Rotate an image counter-clockwise about its centre.

    Args:
        img (numpy.ndarray): A CHW image.
        angle (float): The angle in degrees, counter-clockwise.
        expand (bool): Enlarge the output to hold the whole rotated image;
            otherwise keep the input size and cut the corners off.
        fill (float, tuple or numpy.ndarray): The value of the uncovered
            area, for all channels or one per channel.
        interpolation (int): ``PIL.Image.NEAREST``, ``BILINEAR`` (default)
            or ``BICUBIC``.

    Returns:
        numpy.ndarray: The rotated image, CHW. A rotation by a multiple of
        90 degrees with ``expand`` equals :func:`numpy.rot90` on axes
        (1, 2).

    .. admonition:: Example

        >>> rotate(numpy.zeros((3, 20, 40), numpy.float32), 90).shape
        (3, 40, 20)
    """
    check_image(img, 'rotate')
    if interpolation not in _INTERPOLATIONS:
        raise ValueError('rotate: interpolation must be PIL.Image.NEAREST, '
                         'BILINEAR or BICUBIC; got {!r}'.format(interpolation))
    _, H, W = img.shape
    cos, sin, (out_H, out_W) = rotation(angle, (H, W), expand)
    # Pillow maps each output point back to the input; this is the inverse
    # rotation about the two centres.
    cx, cy, ox, oy = W / 2, H / 2, out_W / 2, out_H / 2
    inverse = (cos, -sin, cx - cos * ox + sin * oy,
               sin, cos, cy - sin * ox - cos * oy)
    fill = numpy.broadcast_to(numpy.asarray(fill, numpy.float64),
                              (img.shape[0],))
    channels = iter(fill)
    return apply_per_channel(img, lambda channel: channel.transform(
        (out_W, out_H), PIL.Image.AFFINE, inverse, resample=interpolation,
        fillcolor=float(next(channels))))
