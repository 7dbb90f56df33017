from chainer_cv.utils._checks import check_bbox, check_size


def flip_bbox(bbox, size, y_flip=False, x_flip=False):
    """Move bounding boxes as :func:`~chainer_cv.transforms.flip` moves
    their image.

    Args:
        bbox (numpy.ndarray): Boxes of shape :math:`(R, 4)`.
        size (tuple): ``(H, W)`` of the image.
        y_flip (bool): The image was flipped upside down.
        x_flip (bool): The image was flipped left to right.

    Returns:
        numpy.ndarray: The boxes (a new array).

    .. admonition:: Example

        >>> bbox = numpy.array([[1, 2, 3, 4]], numpy.float32)
        >>> flip_bbox(bbox, (10, 10), x_flip=True)
        array([[1., 6., 3., 8.]], dtype=float32)
    """
    check_bbox(bbox, 'flip_bbox')
    H, W = check_size(size, 'flip_bbox')
    out = bbox.copy()
    if y_flip:
        out[:, 0], out[:, 2] = H - bbox[:, 2], H - bbox[:, 0]
    if x_flip:
        out[:, 1], out[:, 3] = W - bbox[:, 3], W - bbox[:, 1]
    return out
