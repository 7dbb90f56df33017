from chainer_cv.utils.testing._require import require, require_array


def assert_is_image(img, color=True, check_range=True):
    """Check that ``img`` is an image as ChainerCV defines it.

    A CHW :class:`numpy.ndarray` with 3 channels (``color``) or 1, whose
    values are in :math:`[0, 255]` when ``check_range`` is set.

    Args:
        img: The value to check.
        color (bool): Whether a colour (3-channel) image is expected.
        check_range (bool): Whether to check the range of the values.

    Raises:
        AssertionError: ``img`` is not such an image.

    .. admonition:: Example

        >>> assert_is_image(numpy.zeros((3, 4, 5), numpy.float32))
    """
    require_array(img, 'img', ndim=3)
    require(img.shape[0] == (3 if color else 1),
            'img must have {} channels (CHW); got shape {}',
            3 if color else 1, img.shape)
    if check_range and img.size:
        require(img.min() >= 0 and img.max() <= 255,
                'img values must be in [0, 255]; got [{}, {}]',
                img.min(), img.max())
