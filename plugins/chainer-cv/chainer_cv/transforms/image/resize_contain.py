import numpy
import PIL.Image

from chainer_cv.transforms.image.resize import resize
from chainer_cv.utils._checks import check_image, check_size


def paste(img, size, y_offset, x_offset, fill):
    """``img`` placed at ``(y_offset, x_offset)`` on a canvas of ``size``
    filled with ``fill`` (a scalar or one value per channel)."""
    out = numpy.empty((img.shape[0],) + tuple(size), dtype=img.dtype)
    out[:] = numpy.asarray(fill).reshape(-1, 1, 1)
    out[:, y_offset:y_offset + img.shape[1],
        x_offset:x_offset + img.shape[2]] = img
    return out


def resize_contain(img, size, fill=0, interpolation=PIL.Image.BILINEAR,
                   return_param=False):
    """Fit an image inside a canvas, keeping its aspect ratio.

    An image larger than ``size`` in either side is first shrunk (keeping
    its aspect ratio) until it fits; it is then centred on a canvas of
    ``size`` filled with ``fill``. Smaller images are not enlarged.

    Args:
        img (numpy.ndarray): A CHW image.
        size (tuple): ``(H, W)`` of the canvas.
        fill (float, tuple or numpy.ndarray): The canvas value, for all
            channels or one per channel.
        interpolation (int): A Pillow filter, as :func:`resize` takes.
        return_param (bool): Also return the placement.

    Returns:
        numpy.ndarray or (numpy.ndarray, dict): The image on its canvas;
        with ``return_param``, also a dict with

        * **y_offset** (*int*): the row of the image's top-left corner on
          the canvas.
        * **x_offset** (*int*): its column.
        * **scaled_size** (*tuple*): ``(H, W)`` of the image after
          shrinking.

    .. admonition:: Example

        >>> img = numpy.ones((3, 20, 40), numpy.float32)
        >>> out, param = resize_contain(img, (32, 32), return_param=True)
        >>> out.shape, param
        ((3, 32, 32), {'y_offset': 8, 'x_offset': 0, 'scaled_size': (16, 32)})
    """
    check_image(img, 'resize_contain')
    out_H, out_W = check_size(size, 'resize_contain')
    _, H, W = img.shape
    ratio = min(out_H / H, out_W / W, 1.)
    scaled = (int(H * ratio), int(W * ratio))
    if ratio < 1:
        img = resize(img, scaled, interpolation)
    y_offset = (out_H - scaled[0]) // 2
    x_offset = (out_W - scaled[1]) // 2
    out = paste(img, (out_H, out_W), y_offset, x_offset, fill)
    if return_param:
        return out, {'y_offset': y_offset, 'x_offset': x_offset,
                     'scaled_size': scaled}
    return out
