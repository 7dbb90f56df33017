"""Output sizes of convolutions and 2-D patch extraction (Chainer's
``chainer.utils.conv``).

``im2col`` turns an image ``(N, C, H, W)`` into columns
``(N, C, kh, kw, out_h, out_w)`` and ``col2im`` sums columns back into an
image; see :mod:`chainer_core.utils.conv_nd` for the N-dimensional forms
they are built on. Both accept NumPy and CuPy arrays.
"""
from chainer_core.utils import conv_nd


def get_conv_outsize(size, k, s, p, cover_all=False, d=1):
    """The output length of a convolution along one axis.

    Args:
        size (int): input length.
        k (int): kernel length.
        s (int): stride.
        p (int): padding on each side.
        cover_all (bool): add one more window where the last windows would
            leave input pixels uncovered.
        d (int): dilation; the kernel spans ``(k - 1) * d + 1`` pixels.

    Returns:
        int: ``(size + 2p - dk) // s + 1`` with ``dk = (k - 1) d + 1``, or
        ``(size + 2p - dk + s - 1) // s + 1`` with ``cover_all``.
    """
    dk = (k - 1) * d + 1
    if cover_all:
        return (size + p * 2 - dk + s - 1) // s + 1
    return (size + p * 2 - dk) // s + 1


def get_deconv_outsize(size, k, s, p, cover_all=False, d=1):
    """The output length of a transposed convolution along one axis.

    The inverse of :func:`get_conv_outsize`: ``s (size - 1) + dk - 2p``, or
    ``s (size - 1) + dk - s + 1 - 2p`` with ``cover_all``.
    """
    dk = (k - 1) * d + 1
    if cover_all:
        return s * (size - 1) + dk - s + 1 - 2 * p
    return s * (size - 1) + dk - 2 * p


def im2col(img, kh, kw, sy, sx, ph, pw, pval=0, cover_all=False, dy=1, dx=1,
           out_h=None, out_w=None):
    """Patches of a 4-D image as columns ``(N, C, kh, kw, out_h, out_w)``.

    Args:
        img: array ``(N, C, H, W)``.
        kh, kw (int): kernel size.
        sy, sx (int): stride.
        ph, pw (int): padding.
        pval: the value of the padding.
        cover_all (bool): see :func:`get_conv_outsize`.
        dy, dx (int): dilation.
        out_h, out_w (int): the output size, if already known.
    """
    out_dims = None
    if out_h is not None and out_w is not None:
        out_dims = (out_h, out_w)
    return conv_nd.im2col_nd(img, (kh, kw), (sy, sx), (ph, pw), cover_all,
                             (dy, dx), pval, out_dims)


def col2im(col, sy, sx, ph, pw, h, w, dy=1, dx=1):
    """Sum columns ``(N, C, kh, kw, out_h, out_w)`` back into an image
    ``(N, C, h, w)`` (the adjoint of :func:`im2col`)."""
    return conv_nd.col2im_nd(col, (sy, sx), (ph, pw), (h, w), (dy, dx))


im2col_cpu = im2col_gpu = im2col
col2im_cpu = col2im_gpu = col2im
