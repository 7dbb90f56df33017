import numpy
import PIL.Image

from chainer_cv.utils._checks import check_image


def write_image(img, file, format=None):
    """Save a CHW image to a file with Pillow.

    Values are rounded and clipped to :math:`[0, 255]` and stored as 8-bit.

    Args:
        img (numpy.ndarray): The image, :math:`(3, H, W)` RGB or
            :math:`(1, H, W)` grayscale, values in :math:`[0, 255]`.
        file (str or file-like object): The path to write, or a file object
            open for writing in binary mode.
        format (str): The file format (e.g. ``'png'``, ``'jpeg'``). With
            :obj:`None` it follows the file name's extension (then a file
            object needs ``format``).

    .. admonition:: Example

        >>> write_image(numpy.zeros((3, 32, 32), numpy.float32), 'black.png')
    """
    check_image(img, 'write_image')
    if img.shape[0] not in (1, 3):
        raise ValueError('write_image: img must have 1 or 3 channels; got '
                         'shape {}'.format(img.shape))
    array = numpy.clip(numpy.rint(img), 0, 255).astype(numpy.uint8)
    if array.shape[0] == 1:
        pil = PIL.Image.fromarray(array[0], mode='L')
    else:
        pil = PIL.Image.fromarray(array.transpose(1, 2, 0), mode='RGB')
    pil.save(file, format=format)
