import math
import random

from chainer_cv.transforms.image.crop import crop
from chainer_cv.utils._checks import check_image

_TRIES = 10


def _draw(H, W, scale_ratio_range, aspect_ratio_range):
    """``(scale_ratio, aspect_ratio, H_crop, W_crop)`` of a crop that fits;
    the last draw clipped to the image when none of the tries fits."""
    for _ in range(_TRIES):
        scale_ratio = random.uniform(*scale_ratio_range)
        aspect_ratio = random.uniform(*aspect_ratio_range)
        if random.randint(0, 1):
            aspect_ratio = 1 / aspect_ratio
        area = scale_ratio * H * W
        H_crop = int(math.floor(math.sqrt(area * aspect_ratio)))
        W_crop = int(math.floor(math.sqrt(area / aspect_ratio)))
        if 0 < H_crop <= H and 0 < W_crop <= W:
            break
    return (scale_ratio, aspect_ratio, min(max(H_crop, 1), H),
            min(max(W_crop, 1), W))


def random_sized_crop(img, scale_ratio_range=(0.08, 1),
                      aspect_ratio_range=(3 / 4, 4 / 3),
                      return_param=False, copy=False):
    """Crop a random region of random area and aspect ratio.

    The crop of the Inception networks' training. With :math:`s` drawn
    uniformly from ``scale_ratio_range``, :math:`b` from
    ``aspect_ratio_range`` and :math:`a` being :math:`b` or :math:`1/b`
    with equal chance, the crop is
    :math:`H_{crop} = \\lfloor\\sqrt{s H W a}\\rfloor` by
    :math:`W_{crop} = \\lfloor\\sqrt{s H W / a}\\rfloor` at a uniformly
    random position. A draw that does not fit is redrawn (10 tries, then
    the last one is clipped to the image).

    Args:
        img (numpy.ndarray): A CHW image.
        scale_ratio_range (tuple): The range of the crop's area relative to
            the image's.
        aspect_ratio_range (tuple): The range of
            :math:`H_{crop} / W_{crop}` (or its inverse).
        return_param (bool): Also return the parameters drawn.
        copy (bool): Return a copy instead of a view of ``img``.

    Returns:
        numpy.ndarray or (numpy.ndarray, dict): The crop; with
        ``return_param``, also a dict with

        * **y_slice** (*slice*): the rows of ``img`` kept.
        * **x_slice** (*slice*): the columns kept.
        * **scale_ratio** (*float*): :math:`s`.
        * **aspect_ratio** (*float*): :math:`a`.

    .. admonition:: Example

        >>> img = numpy.zeros((3, 100, 100), numpy.float32)
        >>> out, param = random_sized_crop(img, return_param=True)
        >>> sorted(param)
        ['aspect_ratio', 'scale_ratio', 'x_slice', 'y_slice']
    """
    check_image(img, 'random_sized_crop')
    _, H, W = img.shape
    scale_ratio, aspect_ratio, H_crop, W_crop = _draw(
        H, W, scale_ratio_range, aspect_ratio_range)
    y = random.randint(0, H - H_crop)
    x = random.randint(0, W - W_crop)
    y_slice, x_slice = slice(y, y + H_crop), slice(x, x + W_crop)
    out = crop(img, y_slice, x_slice, copy)
    if return_param:
        return out, {'y_slice': y_slice, 'x_slice': x_slice,
                     'scale_ratio': scale_ratio, 'aspect_ratio': aspect_ratio}
    return out
