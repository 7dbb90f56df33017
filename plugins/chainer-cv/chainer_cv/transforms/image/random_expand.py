import random

from chainer_cv.transforms.image.resize_contain import paste
from chainer_cv.utils._checks import check_image


def random_expand(img, max_ratio=4, fill=0, return_param=False):
    """Place an image at a random position on a larger canvas.

    The zoom-out augmentation of SSD. The canvas is the image's size times
    a ratio drawn uniformly from :math:`[1, max\\_ratio]` (truncated to
    integers), the position uniform among those where the image fits.
    With ``max_ratio <= 1`` the image is returned unchanged.

    Args:
        img (numpy.ndarray): A CHW image.
        max_ratio (float): The largest enlargement.
        fill (float, tuple or numpy.ndarray): The canvas value, for all
            channels or one per channel.
        return_param (bool): Also return the placement.

    Returns:
        numpy.ndarray or (numpy.ndarray, dict): The image on its canvas;
        with ``return_param``, also a dict with

        * **ratio** (*float*): the enlargement drawn.
        * **y_offset** (*int*): the row of the image's top-left corner on
          the canvas.
        * **x_offset** (*int*): its column.

    .. admonition:: Example

        >>> img = numpy.ones((3, 10, 10), numpy.float32)
        >>> out, param = random_expand(img, return_param=True)
        >>> out.shape[1] == int(10 * param['ratio'])
        True
    """
    check_image(img, 'random_expand')
    if max_ratio <= 1:
        if return_param:
            return img, {'ratio': 1, 'y_offset': 0, 'x_offset': 0}
        return img
    _, H, W = img.shape
    ratio = random.uniform(1, max_ratio)
    out_H, out_W = int(H * ratio), int(W * ratio)
    y_offset = random.randint(0, out_H - H)
    x_offset = random.randint(0, out_W - W)
    out = paste(img, (out_H, out_W), y_offset, x_offset, fill)
    if return_param:
        return out, {'ratio': ratio, 'y_offset': y_offset,
                     'x_offset': x_offset}
    return out
