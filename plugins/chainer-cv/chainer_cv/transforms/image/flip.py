from chainer_cv.utils._checks import check_image


def flip(img, y_flip=False, x_flip=False, copy=False):
    """Flip an image vertically and/or horizontally.

    Args:
        img (numpy.ndarray): A CHW image (or boolean masks
            :math:`(R, H, W)`).
        y_flip (bool): Flip upside down.
        x_flip (bool): Flip left to right.
        copy (bool): Return a copy instead of a view of ``img``.

    Returns:
        numpy.ndarray: The flipped image.

    .. admonition:: Example

        >>> img = numpy.arange(4, dtype=numpy.float32).reshape(1, 2, 2)
        >>> flip(img, x_flip=True)[0]
        array([[1., 0.],
               [3., 2.]], dtype=float32)
    """
    check_image(img, 'flip')
    if y_flip:
        img = img[:, ::-1, :]
    if x_flip:
        img = img[:, :, ::-1]
    return img.copy() if copy else img
