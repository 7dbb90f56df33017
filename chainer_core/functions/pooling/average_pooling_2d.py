"""average_pooling_2d: the mean of each window of a 2-D input, the padding
counting as zeros (the 2-D case of :func:`average_pooling_nd` with
``pad_value=0``, with its own kernels)."""
from chainer_core._runtime import kernels
from chainer_core.functions.pooling.average_pooling_nd import (
    AveragePoolingND, average_pool, average_pool_grad)


@kernels.declare('average_pooling_2d')
def _average_pooling_2d(xp, x, ksize, stride, pad, pad_value):
    """y (N, C, out_h, out_w): window sums of x (N, C, H, W) divided by the
    window size (pad_value 0) or by the pixels inside x (pad_value None)."""
    return average_pool(xp, x, ksize, stride, pad, pad_value)


@kernels.declare('average_pooling_2d_grad')
def _average_pooling_2d_grad(xp, gy, in_dims, ksize, stride, pad,
                             pad_value):
    """gx (N, C, H, W): each output gradient divided as in the forward pass
    and added to every pixel of its window."""
    return average_pool_grad(xp, gy, in_dims, ksize, stride, pad, pad_value)


class AveragePooling2D(AveragePoolingND):
    """Two-dimensional average pooling."""

    _name = 'average_pooling_2d'
    _kernels = ('average_pooling_2d', 'average_pooling_2d_grad')

    def __init__(self, ksize, stride=None, pad=0, cover_all=False):
        super().__init__(2, ksize, stride, pad, cover_all, pad_value=0)

    def _again(self):
        return AveragePooling2D(self.ksize, self.stride, self.pad)


def average_pooling_2d(x, ksize, stride=None, pad=0):
    """Two-dimensional spatial average pooling.

    .. math::
        y_{n,c,i,j} = \\frac{1}{k_H k_W} \\sum_{u < k_H,\\, v < k_W}
            \\tilde x_{n,c,\\; s_Y i + u - p_H,\\; s_X j + v - p_W}

    where :math:`\\tilde x` is ``x`` padded with zeros: windows reaching into
    the padding are biased towards zero (use :func:`average_pooling_nd`
    with ``pad_value=None`` to average over the pixels inside only). The
    output height is ``(H + 2 p_H - k_H) // s_Y + 1`` (there is no
    ``cover_all`` mode); likewise the width.

    Args:
        x (Variable or array): input of shape ``(N, C, H, W)``.
        ksize (int or pair of ints): window size ``(k_H, k_W)``.
        stride (int or pair of ints or None): stride; None means ``ksize``.
        pad (int or pair of ints): zero padding ``(p_H, p_W)``.

    Returns:
        Variable of shape ``(N, C, out_h, out_w)``.
    """
    return AveragePooling2D(ksize, stride, pad).apply((x,))[0]
