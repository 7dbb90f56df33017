import random

import numpy

from chainer_cv.utils._checks import check_image


def random_rotate(img, return_param=False):
    """Rotate an image by a random multiple of 90 degrees,
    counter-clockwise.

    Args:
        img (numpy.ndarray): A CHW image.
        return_param (bool): Also return the rotation.

    Returns:
        numpy.ndarray or (numpy.ndarray, dict): The rotated image (a view);
        with ``return_param``, also a dict with

        * **k** (*int*): the rotation was by :math:`90 k` degrees,
          :math:`k \\in \\{0, 1, 2, 3\\}`; ``rotate(img, 90 * k)`` gives
          the same image.

    .. admonition:: Example

        >>> img = numpy.zeros((3, 4, 6), numpy.float32)
        >>> out, param = random_rotate(img, return_param=True)
        >>> out.shape in ((3, 4, 6), (3, 6, 4))
        True
    """
    check_image(img, 'random_rotate')
    k = random.randint(0, 3)
    out = numpy.rot90(img, k, axes=(1, 2))
    if return_param:
        return out, {'k': k}
    return out
