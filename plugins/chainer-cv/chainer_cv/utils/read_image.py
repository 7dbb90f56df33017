import numpy
import PIL.Image

_ALPHA = (None, 'ignore', 'blend_with_white', 'blend_with_black')


def _describe(file):
    return repr(file) if isinstance(file, str) or hasattr(file, '__fspath__') \
        else 'the file object {!r}'.format(getattr(file, 'name', file))


def _open(file, func):
    """The decoded Pillow image of ``file``, fully read, or a clear error.
    """
    try:
        img = PIL.Image.open(file)
        img.load()
    except FileNotFoundError:
        raise
    except (OSError, SyntaxError, ValueError) as e:
        # Pillow reports unknown formats and truncated data as OSError (and
        # a few decoders as SyntaxError); name the file and what to check.
        raise ValueError(
            '{}: cannot read an image from {}: {} (is the file a complete '
            'image in a format Pillow reads?)'
            .format(func, _describe(file), e)) from e
    return img


def _blend(rgba, alpha, background):
    a = rgba[:, :, 3:] / 255
    return rgba[:, :, :3] * a + background * (1 - a)


def read_image(path, dtype=numpy.float32, color=True, alpha=None):
    """Read an image from a file into a CHW array.

    Decoding uses Pillow. Values are in :math:`[0, 255]`; a colour image is
    RGB.

    Args:
        path (str or file-like object): The path of the image file, or a
            file object open for reading in binary mode.
        dtype: The dtype of the array (default ``float32``).
        color (bool): :obj:`True` gives an RGB image of shape
            :math:`(3, H, W)` (grayscale files are converted);
            :obj:`False` gives a grayscale image of shape :math:`(1, H, W)`.
        alpha (None or str): What to do with an image that has an alpha
            channel when ``color`` is :obj:`True`:

            * :obj:`None`: raise :class:`ValueError` (the default).
            * ``'ignore'``: drop the alpha channel.
            * ``'blend_with_white'``: composite onto a white background.
            * ``'blend_with_black'``: composite onto a black background.

    Returns:
        numpy.ndarray: The image, :math:`(C, H, W)`.

    Raises:
        FileNotFoundError: ``path`` does not exist.
        ValueError: The file is not an image, is truncated, or has an alpha
            channel while ``alpha`` is :obj:`None`.

    .. admonition:: Example

        >>> img = read_image('cat.jpg')
        >>> img.shape, img.dtype
        ((3, 480, 640), dtype('float32'))
    """
    if alpha not in _ALPHA:
        raise ValueError('read_image: alpha must be one of {}; got {!r}'
                         .format(_ALPHA, alpha))
    img = _open(path, 'read_image')
    try:
        if not color:
            array = numpy.asarray(img.convert('L'), dtype=numpy.float64)
            return array[None].astype(dtype)
        # Only a true alpha channel counts: a palette's transparent colour
        # (GIFs) is read as its colour, as ChainerCV does.
        if img.mode not in ('RGBA', 'LA', 'PA'):
            array = numpy.asarray(img.convert('RGB'), dtype=numpy.float64)
        elif alpha is None:
            raise ValueError(
                'read_image: {} has an alpha channel (mode {}); pass alpha='
                "'ignore', 'blend_with_white' or 'blend_with_black' to say "
                'how to handle it'.format(_describe(path), img.mode))
        else:
            rgba = numpy.asarray(img.convert('RGBA'), dtype=numpy.float64)
            if alpha == 'ignore':
                array = rgba[:, :, :3]
            else:
                array = _blend(rgba, alpha,
                               255. if alpha == 'blend_with_white' else 0.)
    finally:
        img.close()
    return array.transpose(2, 0, 1).astype(dtype)


def read_label(path, dtype=numpy.int32):
    """Read a label image (e.g. a segmentation map) from a file.

    The stored values are returned as they are: a palette (``'P'`` mode)
    PNG gives its palette indices, not colours.

    Args:
        path (str or file-like object): The path of the file, or a file
            object open for reading in binary mode.
        dtype: The dtype of the array (default ``int32``).

    Returns:
        numpy.ndarray: The labels, :math:`(H, W)` for a single-channel
        file, :math:`(C, H, W)` for a multi-channel one.

    Raises:
        FileNotFoundError: ``path`` does not exist.
        ValueError: The file is not an image or is truncated.

    .. admonition:: Example

        >>> label = read_label('SegmentationClass/2007_000032.png')
        >>> label.shape, label.dtype
        ((281, 500), dtype('int32'))
    """
    img = _open(path, 'read_label')
    try:
        array = numpy.asarray(img)
    finally:
        img.close()
    if array.ndim == 3:
        array = array.transpose(2, 0, 1)
    return array.astype(dtype)
