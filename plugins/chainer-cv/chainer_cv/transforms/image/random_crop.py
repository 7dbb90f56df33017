import random

from chainer_cv.transforms.image.crop import crop_size, crop_window
from chainer_cv.utils._checks import check_image


def random_crop(img, size, return_param=False, copy=False):
    """Crop an image at a random position.

    The top-left corner is uniform over the positions where the crop fits
    (Python's :mod:`random`).

    Args:
        img (numpy.ndarray): A CHW image.
        size (tuple): ``(H, W)`` of the crop, at most the image's.
        return_param (bool): Also return the slices.
        copy (bool): Return a copy instead of a view of ``img``.

    Returns:
        numpy.ndarray or (numpy.ndarray, dict): The crop; with
        ``return_param``, also a dict with

        * **y_slice** (*slice*): the rows of ``img`` kept.
        * **x_slice** (*slice*): the columns kept.

    .. admonition:: Example

        >>> img = numpy.zeros((3, 10, 12), numpy.float32)
        >>> out, param = random_crop(img, (4, 5), return_param=True)
        >>> out.shape
        (3, 4, 5)
    """
    check_image(img, 'random_crop')
    H, W = crop_size(img, size, 'random_crop')
    y = random.randint(0, img.shape[1] - H)
    x = random.randint(0, img.shape[2] - W)
    return crop_window(img, y, x, (H, W), copy, return_param)
