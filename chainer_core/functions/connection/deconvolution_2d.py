"""deconvolution_2d: two-dimensional transposed convolution (the 2-D case
of :func:`deconvolution_nd`, with its own kernel)."""
from chainer_core._runtime import kernels
from chainer_core.functions.connection import _convolution as _cv
from chainer_core.functions.connection.deconvolution_nd import \
    DeconvolutionND


@kernels.declare('deconvolution_2d')
def _deconvolution_2d(xp, x, W, b, stride, pad, dilate, groups, outsize):
    """y (N, Cout, out_h, out_w) = transposed convolution of x
    (N, Cin, H, W) with W (Cin, Cout/groups, kh, kw), plus b (Cout,) or
    None; stride, pad, dilate and outsize are pairs (y, x)."""
    return _cv.deconv_forward(xp, x, W, b, stride, pad, dilate, groups,
                              outsize)


class Deconvolution2DFunction(DeconvolutionND):
    """Two-dimensional transposed convolution."""

    _name = 'deconvolution_2d'
    _kernel = 'deconvolution_2d'

    def __init__(self, stride=1, pad=0, outsize=None, dilate=1, groups=1):
        super().__init__(2, stride, pad, outsize, dilate, groups)

    def _convolution(self):
        from chainer_core.functions.connection.convolution_2d import \
            Convolution2DFunction
        return Convolution2DFunction(self.stride, self.pad, self.cover_all,
                                     self.dilate, self.groups)


def deconvolution_2d(x, W, b=None, stride=1, pad=0, outsize=None, *,
                     dilate=1, groups=1):
    """Two-dimensional transposed convolution (deconvolution).

    The adjoint of :func:`convolution_2d` with respect to its input: with
    ``x`` of shape :math:`(N, C_{in}, H, W)` and ``W`` of shape
    :math:`(C_{in}, C_{out} / G, k_H, k_W)`, each input pixel adds
    ``W[c, o, u, v] * x[n, c, i, j]`` to the output pixel
    ``(s_Y i + d_Y u - p_H, s_X j + d_X v - p_W)`` of output channel
    ``o`` of its group, and ``b`` is added. The default output height is
    ``s_Y (H - 1) + dk_H - 2 p_H`` with ``dk_H = (k_H - 1) d_Y + 1``, and
    likewise the width.

    Args:
        x (Variable or array): input of shape ``(N, C_in, H, W)``.
        W (Variable or array): filters of shape
            ``(C_in, C_out / groups, kh, kw)``.
        b (Variable or array): bias of shape ``(C_out,)``, or None. ``W``
            and ``b`` may have float dtypes other than ``x``'s.
        stride (int or pair of ints): ``(s_Y, s_X)``.
        pad (int or pair of ints): ``(p_H, p_W)`` cropped from both sides.
        outsize (pair of ints): the output's ``(out_h, out_w)``; a
            convolution with these parameters must map it back onto
            ``x``'s size (with or without ``cover_all``).
        dilate (int or pair of ints): spacing between kernel taps.
        groups (int): number of channel groups.

    Returns:
        Variable of shape ``(N, C_out, out_h, out_w)`` and the dtype of
        ``x``.
    """
    node = Deconvolution2DFunction(stride, pad, outsize, dilate, groups)
    args = (x, W) if b is None else (x, W, b)
    return node.apply(args)[0]
