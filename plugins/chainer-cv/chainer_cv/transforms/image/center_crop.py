from chainer_cv.transforms.image.crop import crop_size, crop_window
from chainer_cv.utils._checks import check_image


def center_crop(img, size, return_param=False, copy=False):
    """Crop the centre of an image.

    When the margin is odd the extra pixel is left at the bottom (right).

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
        >>> out, param = center_crop(img, (4, 4), return_param=True)
        >>> param['y_slice'], param['x_slice']
        (slice(3, 7, None), slice(4, 8, None))
    """
    check_image(img, 'center_crop')
    H, W = crop_size(img, size, 'center_crop')
    y = (img.shape[1] - H) // 2
    x = (img.shape[2] - W) // 2
    return crop_window(img, y, x, (H, W), copy, return_param)
