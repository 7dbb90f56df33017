"""unpooling_2d: every pixel of a 2-D input copied over its window of the
output (the 2-D case of :func:`unpooling_nd`, with its own kernels)."""
from chainer_core._runtime import kernels
from chainer_core.functions.pooling.unpooling_nd import (
    UnpoolingND, unpool, unpool_grad)


@kernels.declare('unpooling_2d')
def _unpooling_2d(xp, x, ksize, stride, pad, outsize):
    """y (N, C, out_h, out_w): each pixel of x (N, C, H, W) added over its
    window."""
    return unpool(xp, x, ksize, stride, pad, outsize)


@kernels.declare('unpooling_2d_grad')
def _unpooling_2d_grad(xp, gy, ksize, stride, pad, in_dims):
    """gx (N, C, H, W): the sum of each window of gy."""
    return unpool_grad(xp, gy, ksize, stride, pad, in_dims)


class Unpooling2D(UnpoolingND):
    """Two-dimensional unpooling."""

    _name = 'unpooling_2d'
    _kernels = ('unpooling_2d', 'unpooling_2d_grad')

    def __init__(self, ksize, stride=None, pad=0, outsize=None,
                 cover_all=True):
        super().__init__(2, ksize, stride, pad, outsize, cover_all)

    def _again(self):
        return Unpooling2D(self.ksize, self.stride, self.pad, self._outsize,
                           self.cover_all)


def unpooling_2d(x, ksize, stride=None, pad=0, outsize=None, cover_all=True):
    """Two-dimensional unpooling: pixels copied over their windows.

    Each input pixel ``(i, j)`` is added to every output pixel
    ``(s_Y i + u - p_H, s_X j + v - p_W)`` of its window. The default
    output height is ``s_Y (H - 1) + k_H - s_Y + 1 - 2 p_H`` with
    ``cover_all`` (the default; e.g. ``2 H - 1`` for ``ksize=2``) and
    ``s_Y (H - 1) + k_H - 2 p_H`` without; likewise the width.

    Args:
        x (Variable or array): input of shape ``(N, C, H, W)``.
        ksize (int or pair of ints): window size ``(k_H, k_W)``.
        stride (int or pair of ints or None): stride; None means ``ksize``.
        pad (int or pair of ints): padding ``(p_H, p_W)`` cropped.
        outsize (pair of ints): the output's ``(out_h, out_w)``; pooling it
            with these parameters must give ``(H, W)``.
        cover_all (bool): the ``cover_all`` of the pooling this inverts.

    Returns:
        Variable of shape ``(N, C, out_h, out_w)``.
    """
    return Unpooling2D(ksize, stride, pad, outsize, cover_all).apply((x,))[0]
