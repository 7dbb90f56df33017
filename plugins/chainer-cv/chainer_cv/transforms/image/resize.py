import numpy
import PIL.Image

from chainer_cv.utils._checks import check_image, check_size

_INTERPOLATIONS = (PIL.Image.NEAREST, PIL.Image.BILINEAR, PIL.Image.BICUBIC,
                   PIL.Image.LANCZOS, PIL.Image.BOX, PIL.Image.HAMMING)


def apply_per_channel(img, func):
    """Apply ``func`` (a Pillow ``'F'`` image to another) to each channel
    of the CHW ``img``; the result keeps ``img``'s dtype (boolean masks
    are thresholded at one half)."""
    channels = [numpy.asarray(func(PIL.Image.fromarray(
        channel.astype(numpy.float32, copy=False), mode='F')))
        for channel in img]
    out = numpy.stack(channels)
    if img.dtype == numpy.bool_:
        return out >= 0.5
    if numpy.issubdtype(img.dtype, numpy.integer):
        out = numpy.rint(out)
    return out.astype(img.dtype, copy=False)


def resize(img, size, interpolation=PIL.Image.BILINEAR):
    """Resize an image.

    Resampling is Pillow's, channel by channel in ``float32``.

    Args:
        img (numpy.ndarray): A CHW image (or boolean masks
            :math:`(R, H, W)`).
        size (tuple): ``(H, W)`` after resizing.
        interpolation (int): A Pillow filter: ``PIL.Image.NEAREST``,
            ``BILINEAR`` (default), ``BICUBIC``, ``LANCZOS``, ``BOX`` or
            ``HAMMING``.

    Returns:
        numpy.ndarray: The image, :math:`(C, H, W)`, of ``img``'s dtype.

    .. admonition:: Example

        >>> img = numpy.zeros((3, 32, 48), numpy.float32)
        >>> resize(img, (64, 96)).shape
        (3, 64, 96)
    """
    check_image(img, 'resize')
    H, W = check_size(size, 'resize')
    if H < 1 or W < 1:
        raise ValueError('resize: size must be positive; got {}'.format(size))
    if interpolation not in _INTERPOLATIONS:
        raise ValueError('resize: interpolation must be one of PIL.Image\'s '
                         'filters {}; got {!r}'.format(_INTERPOLATIONS,
                                                       interpolation))
    return apply_per_channel(
        img, lambda channel: channel.resize((W, H), resample=interpolation))
