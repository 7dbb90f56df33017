import PIL.Image

from chainer_cv.transforms.image.resize import resize
from chainer_cv.utils._checks import check_image


def scaled_size(in_size, size, fit_short):
    """The ``(H, W)`` that :func:`scale` resizes an image of ``in_size``
    to."""
    H, W = in_size
    if (H <= W) == fit_short:
        return size, int(size * W / H)
    return int(size * H / W), size


def scale(img, size, fit_short=True, interpolation=PIL.Image.BILINEAR):
    """Resize an image keeping its aspect ratio, by one side's length.

    With ``fit_short`` the shorter side becomes ``size`` (an image of
    :math:`H < W` becomes :math:`(size, \\lfloor size \\cdot W / H
    \\rfloor)`); otherwise the longer side does. An image already at that
    size is returned as it is.

    Args:
        img (numpy.ndarray): A CHW image.
        size (int): The length of the side to fit.
        fit_short (bool): Fit the shorter side (default) or the longer one.
        interpolation (int): A Pillow filter, as :func:`resize` takes.

    Returns:
        numpy.ndarray: The image, CHW.

    .. admonition:: Example

        >>> scale(numpy.zeros((3, 40, 60), numpy.float32), 20).shape
        (3, 20, 30)
    """
    check_image(img, 'scale')
    out_size = scaled_size(img.shape[1:], size, fit_short)
    if out_size == img.shape[1:]:
        return img
    return resize(img, out_size, interpolation)
