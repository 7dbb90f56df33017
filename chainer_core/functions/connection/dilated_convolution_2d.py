"""dilated_convolution_2d: two-dimensional convolution whose kernel taps
are ``dilate`` pixels apart."""
from chainer_core.functions.connection.convolution_2d import \
    Convolution2DFunction


class DilatedConvolution2DFunction(Convolution2DFunction):
    """A :class:`Convolution2DFunction` named after the dilated form."""

    _name = 'dilated_convolution_2d'


def dilated_convolution_2d(x, W, b=None, stride=1, pad=0, dilate=1,
                           cover_all=False):
    """Two-dimensional dilated convolution.

    :func:`convolution_2d` with kernel taps ``dilate`` pixels apart: the
    kernel of size ``k`` spans ``(k - 1) * dilate + 1`` pixels.

    .. math::
        y_{n,o,i,j} = b_o + \\sum_{c,u,v} W_{o,c,u,v}\\,
            x_{n,c,\\; s_Y i + d_Y u - p_H,\\; s_X j + d_X v - p_W}

    Args:
        x (Variable or array): input of shape ``(N, C, H, W)``.
        W (Variable or array): filters of shape ``(O, C, kh, kw)``.
        b (Variable or array): bias of shape ``(O,)``, or None. ``W`` and
            ``b`` may have float dtypes other than ``x``'s.
        stride (int or pair of ints): ``(s_Y, s_X)``.
        pad (int or pair of ints): zero padding ``(p_H, p_W)``.
        dilate (int or pair of ints): ``(d_Y, d_X)``.
        cover_all (bool): enlarge the output so that every input pixel is
            seen by some window.

    Returns:
        Variable of the dtype of ``x`` and shape ``(N, O, out_h, out_w)``
        with
        ``out_h = (H + 2 p_H - dk_H) // s_Y + 1``,
        ``dk_H = (kh - 1) d_Y + 1`` (and likewise ``out_w``).
    """
    node = DilatedConvolution2DFunction(stride, pad, cover_all, dilate)
    args = (x, W) if b is None else (x, W, b)
    return node.apply(args)[0]
