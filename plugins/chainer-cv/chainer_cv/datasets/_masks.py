"""Masks from polygons and from COCO's run-length encodings."""
import numpy


def polygon_to_mask(polygon, height, width):
    """Fill a polygon: the pixels whose centres lie inside it (even-odd
    rule).

    Args:
        polygon: vertices as ``(x, y)`` pairs, shape ``(N, 2)``, in pixel
            coordinates where pixel ``(y, x)`` spans ``[x, x + 1)``.
        height (int): the mask's height.
        width (int): the mask's width.

    Returns:
        numpy.ndarray: a bool mask ``(height, width)``.
    """
    mask = numpy.zeros((height, width), dtype=bool)
    polygon = numpy.asarray(polygon, dtype=numpy.float64).reshape(-1, 2)
    if len(polygon) < 3:
        return mask
    x0, y0 = polygon[:, 0], polygon[:, 1]
    x1, y1 = numpy.roll(x0, -1), numpy.roll(y0, -1)
    centres_x = numpy.arange(width) + 0.5
    first = max(int(numpy.floor(y0.min())), 0)
    last = min(int(numpy.ceil(y0.max())), height)
    for row in range(first, last):
        y = row + 0.5
        # Half-open in y so that a vertex on the scan line counts once.
        crossing = (y0 <= y) != (y1 <= y)
        if not crossing.any():
            continue
        t = (y - y0[crossing]) / (y1[crossing] - y0[crossing])
        xs = x0[crossing] + t * (x1[crossing] - x0[crossing])
        inside = (xs[numpy.newaxis] < centres_x[:, numpy.newaxis]).sum(1)
        mask[row] = inside % 2 == 1
    return mask


def decode_rle_counts(counts):
    """Decode the compressed ``counts`` string of a COCO RLE into run
    lengths.

    Each run length is written in 5-bit groups, least significant first,
    as characters from ``'0'`` (48) on; bit 6 of a character says that
    another group follows and bit 5 of the last one is the sign. From the
    third run on, the value is the difference from the run two before.
    """
    runs = []
    position = 0
    while position < len(counts):
        value = 0
        shift = 0
        more = True
        while more:
            if position >= len(counts):
                raise ValueError('the RLE string ends inside a number')
            group = ord(counts[position]) - 48
            if not 0 <= group < 64:
                raise ValueError('the RLE string has the invalid character '
                                 '{!r}'.format(counts[position]))
            value |= (group & 0x1f) << shift
            more = bool(group & 0x20)
            shift += 5
            position += 1
            if not more and group & 0x10:
                value -= 1 << shift
        if len(runs) > 2:
            value += runs[-2]
        runs.append(value)
    return runs


def rle_to_mask(rle, height, width):
    """Decode a COCO run-length encoding (compressed or not).

    Args:
        rle (dict): ``{'size': [h, w], 'counts': ...}``; ``counts`` is a
            list of run lengths or a compressed string. Runs alternate
            between 0 and 1, starting with 0, in column-major order.
        height (int): the expected height.
        width (int): the expected width.

    Returns:
        numpy.ndarray: a bool mask ``(height, width)``.
    """
    size = [int(s) for s in rle.get('size', (height, width))]
    if size != [height, width]:
        raise ValueError('the RLE is of size {}, the image of size {}'
                         .format(size, [height, width]))
    counts = rle['counts']
    if isinstance(counts, bytes):
        counts = counts.decode('ascii')
    if isinstance(counts, str):
        counts = decode_rle_counts(counts)
    runs = numpy.asarray(counts, dtype=numpy.int64)
    if (runs < 0).any() or runs.sum() != height * width:
        raise ValueError('the RLE runs do not cover the {}x{} image'
                         .format(height, width))
    values = numpy.arange(len(runs)) % 2 == 1
    flat = numpy.repeat(values, runs)
    return flat.reshape(width, height).T.copy()


def mask_to_bbox(mask):
    """The tight box ``(y_min, x_min, y_max, x_max)`` of each mask of an
    ``(R, H, W)`` stack, as float32 ``(R, 4)``; zeros for an empty mask."""
    bbox = numpy.zeros((len(mask), 4), dtype=numpy.float32)
    for i, m in enumerate(mask):
        rows = numpy.flatnonzero(m.any(axis=1))
        cols = numpy.flatnonzero(m.any(axis=0))
        if len(rows):
            bbox[i] = rows[0], cols[0], rows[-1] + 1, cols[-1] + 1
    return bbox
