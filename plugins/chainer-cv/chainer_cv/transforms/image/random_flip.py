import random

from chainer_cv.transforms.image.flip import flip
from chainer_cv.utils._checks import check_image


def random_flip(img, y_random=False, x_random=False, return_param=False,
                copy=False):
    """Flip an image at random, each allowed direction with probability
    one half.

    Args:
        img (numpy.ndarray): A CHW image.
        y_random (bool): Flip upside down at random.
        x_random (bool): Flip left to right at random.
        return_param (bool): Also return which flips were made.
        copy (bool): Return a copy instead of a view of ``img``.

    Returns:
        numpy.ndarray or (numpy.ndarray, dict): The image; with
        ``return_param``, also a dict with

        * **y_flip** (*bool*): whether it was flipped upside down.
        * **x_flip** (*bool*): whether it was flipped left to right.

    .. admonition:: Example

        >>> img = numpy.zeros((3, 4, 4), numpy.float32)
        >>> out, param = random_flip(img, x_random=True, return_param=True)
        >>> sorted(param)
        ['x_flip', 'y_flip']
    """
    check_image(img, 'random_flip')
    y_flip = bool(y_random and random.choice((True, False)))
    x_flip = bool(x_random and random.choice((True, False)))
    out = flip(img, y_flip=y_flip, x_flip=x_flip, copy=copy)
    if return_param:
        return out, {'y_flip': y_flip, 'x_flip': x_flip}
    return out
