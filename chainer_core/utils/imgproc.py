"""Image crops for test-time augmentation (Chainer's
``chainer.utils.imgproc``)."""
import numpy


def oversample(images, crop_dims):
    """Ten crops of each image: the four corners, the centre, and the
    horizontal mirror of each of those five.

    Args:
        images: a sequence (or array) of images, each ``(C, H, W)``.
        crop_dims (tuple of two ints): the crop's ``(height, width)``.

    Returns:
        numpy.ndarray: ``(10 * len(images), C, crop_h, crop_w)`` of the
        images' dtype; the crops of image ``i`` are rows ``10 i`` to
        ``10 i + 9`` (corners top-left, top-right, bottom-left,
        bottom-right, centre, then the same mirrored).

    Example:
        >>> oversample(numpy.zeros((2, 3, 8, 8)), (4, 4)).shape
        (20, 3, 4, 4)
    """
    if len(crop_dims) != 2:
        raise ValueError('oversample: crop_dims must be (height, width), '
                         'got {!r}'.format(crop_dims))
    ch, cw = (int(d) for d in crop_dims)
    images = [numpy.asarray(img) for img in images]
    if not images:
        raise ValueError('oversample: images is empty')
    c, h, w = images[0].shape
    if ch > h or cw > w:
        raise ValueError('oversample: crop {} is larger than the images {}'
                         .format((ch, cw), (h, w)))
    top, left = (h - ch) // 2, (w - cw) // 2
    corners = [(0, 0), (0, w - cw), (h - ch, 0), (h - ch, w - cw),
               (top, left)]
    crops = numpy.empty((10 * len(images), c, ch, cw), images[0].dtype)
    for i, img in enumerate(images):
        if img.shape != (c, h, w):
            raise ValueError('oversample: image {} has shape {}, the first '
                             'has {}'.format(i, img.shape, (c, h, w)))
        for j, (y, x) in enumerate(corners):
            crop = img[:, y:y + ch, x:x + cw]
            crops[10 * i + j] = crop
            crops[10 * i + 5 + j] = crop[:, :, ::-1]
    return crops
