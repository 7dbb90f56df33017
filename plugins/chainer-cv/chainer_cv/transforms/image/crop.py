"""Shared by the crops: the crop size check and the slicing."""
from chainer_cv.utils._checks import check_size


def crop_size(img, size, func):
    """``size`` as ``(H, W)``, checked to fit inside ``img``."""
    H, W = check_size(size, func)
    if not (0 < H <= img.shape[1] and 0 < W <= img.shape[2]):
        raise ValueError('{}: size must be positive and fit in the image '
                         '{}; got {}'.format(func, img.shape[1:], (H, W)))
    return H, W


def crop(img, y_slice, x_slice, copy):
    out = img[:, y_slice, x_slice]
    return out.copy() if copy else out


def crop_window(img, y, x, size, copy, return_param):
    """The ``(H, W)`` window of ``img`` whose top-left pixel is ``(y, x)``;
    with ``return_param``, also its slices as ``y_slice`` and
    ``x_slice``."""
    H, W = size
    y_slice, x_slice = slice(y, y + H), slice(x, x + W)
    out = crop(img, y_slice, x_slice, copy)
    if return_param:
        return out, {'y_slice': y_slice, 'x_slice': x_slice}
    return out
