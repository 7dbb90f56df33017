"""The colours of the PASCAL VOC label maps."""
import numpy


def voc_colormap(labels):
    """The PASCAL VOC colour of each label.

    Each bit of a label goes to one of the colour channels, from the most
    significant bit of the channel down: bits 0, 3, 6 ... to red, 1, 4 ...
    to green and 2, 5 ... to blue, so that near labels get distant
    colours (0 black, 1 dark red, 2 dark green, 255 a light grey).

    Args:
        labels (iterable of int): the labels, >= 0.

    Returns:
        numpy.ndarray: ``(len(labels), 3)`` float32 RGB in [0, 255].
    """
    labels = numpy.asarray(list(labels), dtype=numpy.int64)
    if labels.size and labels.min() < 0:
        raise ValueError('voc_colormap: labels must be >= 0, got {}'.format(
            labels.min()))
    colors = numpy.zeros((len(labels), 3), dtype=numpy.int64)
    rest = labels.copy()
    for shift in range(7, -1, -1):
        for channel in range(3):
            colors[:, channel] |= ((rest >> channel) & 1) << shift
        rest >>= 3
    return colors.astype(numpy.float32)
