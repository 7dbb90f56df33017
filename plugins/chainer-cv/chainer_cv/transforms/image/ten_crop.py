import numpy

from chainer_cv.transforms.image.crop import crop_size
from chainer_cv.utils._checks import check_image


def ten_crop(img, size):
    """The ten crops of test-time augmentation.

    The centre crop, the top-left, bottom-left, top-right and bottom-right
    crops, then the same five flipped horizontally, in this order.

    Args:
        img (numpy.ndarray): A CHW image.
        size (tuple): ``(H, W)`` of the crops, at most the image's.

    Returns:
        numpy.ndarray: The crops, :math:`(10, C, H, W)`.

    .. admonition:: Example

        >>> ten_crop(numpy.zeros((3, 32, 32), numpy.float32), (24, 24)).shape
        (10, 3, 24, 24)
    """
    check_image(img, 'ten_crop')
    H, W = crop_size(img, size, 'ten_crop')
    _, img_H, img_W = img.shape
    y_center, x_center = (img_H - H) // 2, (img_W - W) // 2
    corners = ((y_center, x_center), (0, 0), (img_H - H, 0), (0, img_W - W),
               (img_H - H, img_W - W))
    crops = numpy.stack([img[:, y:y + H, x:x + W] for y, x in corners])
    return numpy.concatenate((crops, crops[:, :, :, ::-1]))
