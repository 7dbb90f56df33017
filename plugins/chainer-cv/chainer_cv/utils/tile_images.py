import numpy

from chainer_cv.utils._checks import check_image


def tile_images(imgs, n_col, pad=2, fill=0):
    """Arrange images in a grid of ``n_col`` columns.

    The images are placed row by row in cells of
    :math:`(H + pad_y, W + pad_x)` pixels, :math:`(H, W)` being the size of
    the largest image, so the grid is
    :math:`((H + pad_y) \\lceil B / n_{col} \\rceil, (W + pad_x) n_{col})`
    (``n_col`` is capped at :math:`B`). Each image is centred in its cell;
    empty cells and the padding hold ``fill``.

    Args:
        imgs (array or list of arrays): The images, :math:`(B, C, H, W)` or
            a list of CHW arrays with the same :math:`C`.
        n_col (int): The number of columns.
        pad (int or tuple): The padding in pixels, or ``(y_pad, x_pad)``.
        fill (float, tuple or array): The value of the padding and empty
            cells, per channel or for all.

    Returns:
        numpy.ndarray: The grid, :math:`(C, H', W')`, of ``imgs``' dtype.

    .. admonition:: Example

        >>> imgs = numpy.zeros((5, 3, 10, 20), numpy.float32)
        >>> tile_images(imgs, n_col=2).shape
        (3, 36, 44)
    """
    for i, img in enumerate(imgs):
        check_image(img, 'tile_images', 'imgs[{}]'.format(i))
    if len(imgs) == 0:
        raise ValueError('tile_images: imgs must hold at least one image')
    if n_col < 1:
        raise ValueError('tile_images: n_col must be at least 1; got {}'
                         .format(n_col))
    y_pad, x_pad = (pad, pad) if numpy.isscalar(pad) else pad
    C = imgs[0].shape[0]
    cell_H = max(img.shape[1] for img in imgs)
    cell_W = max(img.shape[2] for img in imgs)
    n_col = min(n_col, len(imgs))
    n_row = -(-len(imgs) // n_col)
    cell_H += y_pad
    cell_W += x_pad
    out = numpy.empty((C, n_row * cell_H, n_col * cell_W),
                      dtype=imgs[0].dtype)
    out[:] = numpy.asarray(fill).reshape(-1, 1, 1)
    for i, img in enumerate(imgs):
        if img.shape[0] != C:
            raise ValueError(
                'tile_images: all images must have {} channels; imgs[{}] has '
                'shape {}'.format(C, i, img.shape))
        row, col = divmod(i, n_col)
        y = row * cell_H + (cell_H - img.shape[1]) // 2
        x = col * cell_W + (cell_W - img.shape[2]) // 2
        out[:, y:y + img.shape[1], x:x + img.shape[2]] = img
    return out
