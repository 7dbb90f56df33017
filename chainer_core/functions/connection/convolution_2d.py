"""convolution_2d: two-dimensional convolution with stride, padding,
cover_all, dilation and groups (the 2-D case of :func:`convolution_nd`,
with its own kernels so that a backend can accelerate it alone)."""
from chainer_core._runtime import kernels
from chainer_core.functions.connection import _convolution as _cv
from chainer_core.functions.connection.convolution_nd import (
    ConvolutionND, ConvolutionNDGradW)


@kernels.declare('convolution_2d')
def _convolution_2d(xp, x, W, b, stride, pad, dilate, groups, cover_all):
    """y (N, O, out_h, out_w) = x (N, C, H, W) convolved with W
    (O, C/groups, kh, kw), plus b (O,) or None; stride, pad and dilate are
    pairs (y, x)."""
    return _cv.conv_forward(xp, x, W, b, stride, pad, dilate, groups,
                            cover_all)


@kernels.declare('convolution_2d_grad_w')
def _convolution_2d_grad_w(xp, x, gy, ksize, stride, pad, dilate, groups):
    """gW (O, C/groups, kh, kw) of convolution_2d from x and the output
    gradient gy."""
    return _cv.conv_grad_w(xp, x, gy, ksize, stride, pad, dilate, groups)


class Convolution2DFunction(ConvolutionND):
    """Two-dimensional convolution ``y = x * W + b``."""

    _name = 'convolution_2d'
    _kernel = 'convolution_2d'

    def __init__(self, stride=1, pad=0, cover_all=False, dilate=1,
                 groups=1):
        super().__init__(2, stride, pad, cover_all, dilate, groups)

    def _convolution(self, cover_all):
        return Convolution2DFunction(self.stride, self.pad, cover_all,
                                     self.dilate, self.groups)

    def _deconvolution(self, outsize):
        from chainer_core.functions.connection.deconvolution_2d import \
            Deconvolution2DFunction
        return Deconvolution2DFunction(self.stride, self.pad, outsize,
                                       self.dilate, self.groups)

    def _grad_w(self, ksize):
        return Convolution2DGradW(self, ksize)


class Convolution2DGradW(ConvolutionNDGradW):
    """The filter gradient of :class:`Convolution2DFunction`."""

    _kernel = 'convolution_2d_grad_w'


def convolution_2d(x, W, b=None, stride=1, pad=0, cover_all=False, *,
                   dilate=1, groups=1):
    """Two-dimensional convolution.

    With ``x`` of shape :math:`(N, C, H, W)` and ``W`` of shape
    :math:`(O, C / G, k_H, k_W)` (``G = groups``),

    .. math::
        y_{n,o,i,j} = b_o + \\sum_{c,u,v} W_{o,c,u,v}\\,
            x_{n,\\,g(o) C/G + c,\\; s_Y i + d_Y u - p_H,\\;
              s_X j + d_X v - p_W}

    where ``x`` is zero outside its bounds and :math:`g(o)` is the group of
    output channel ``o``. The output height is
    ``(H + 2 p_H - dk_H) // s_Y + 1`` with ``dk_H = (k_H - 1) d_Y + 1``
    (``(H + 2 p_H - dk_H + s_Y - 1) // s_Y + 1`` with ``cover_all``), and
    likewise the width.

    Args:
        x (Variable or array): input of shape ``(N, C, H, W)``.
        W (Variable or array): filters of shape ``(O, C / groups, kh, kw)``.
        b (Variable or array): bias of shape ``(O,)``, or None. ``W`` and
            ``b`` may have float dtypes other than ``x``'s: the convolution
            is computed in the widest, and each gradient has the dtype of
            its input.
        stride (int or pair of ints): ``(s_Y, s_X)``.
        pad (int or pair of ints): zero padding ``(p_H, p_W)`` on both
            sides.
        cover_all (bool): enlarge the output so that every input pixel is
            seen by some window.
        dilate (int or pair of ints): spacing ``(d_Y, d_X)`` between taps.
        groups (int): split the channels into this many groups, each
            convolved with its own filters.

    Returns:
        Variable of shape ``(N, O, out_h, out_w)`` and the dtype of ``x``.
    """
    node = Convolution2DFunction(stride, pad, cover_all, dilate, groups)
    args = (x, W) if b is None else (x, W, b)
    return node.apply(args)[0]
