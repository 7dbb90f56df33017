import numpy


def generate_random_bbox(n, img_size, min_length, max_length):
    """Random bounding boxes inside an image, for tests and examples.

    Each box's height and width are drawn uniformly from
    ``[min_length, max_length)`` and its top-left corner uniformly among
    the places where the box fits (the image is assumed larger than
    ``max_length``). Uses NumPy's global random state.

    Args:
        n (int): The number of boxes.
        img_size (tuple): ``(H, W)`` of the image.
        min_length (float): The shortest side.
        max_length (float): The longest side.

    Returns:
        numpy.ndarray: ``float32`` boxes of shape :math:`(n, 4)`,
        :math:`(y_{min}, x_{min}, y_{max}, x_{max})`.

    .. admonition:: Example

        >>> bbox = generate_random_bbox(5, (64, 48), 4, 16)
        >>> bbox.shape
        (5, 4)
    """
    H, W = img_size
    y_min = numpy.random.uniform(0, H - max_length, size=(n,))
    x_min = numpy.random.uniform(0, W - max_length, size=(n,))
    height = numpy.random.uniform(min_length, max_length, size=(n,))
    width = numpy.random.uniform(min_length, max_length, size=(n,))
    return numpy.stack((y_min, x_min, y_min + height, x_min + width),
                       axis=1).astype(numpy.float32)
