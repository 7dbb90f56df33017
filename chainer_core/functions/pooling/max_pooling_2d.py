"""max_pooling_2d: the maximum of each window of a 2-D input (the 2-D
case of :func:`max_pooling_nd`, with its own kernels)."""
from chainer_core._runtime import kernels
from chainer_core.functions.pooling import _pooling
from chainer_core.functions.pooling.max_pooling_nd import (
    MaxPoolingND, max_pool)


@kernels.declare('max_pooling_2d')
def _max_pooling_2d(xp, x, ksize, stride, pad, cover_all):
    """(y, indexes): maxima of the windows of x (N, C, H, W) padded with
    -inf, and the window tap ky * kw + kx (int32) that held each."""
    return max_pool(xp, x, ksize, stride, pad, cover_all)


@kernels.declare('max_pooling_2d_grad')
def _max_pooling_2d_grad(xp, gy, indexes, in_dims, ksize, stride, pad):
    """gx (N, C, H, W): gy added at the pixels the taps indexes chose."""
    return _pooling.scatter_to_windows(xp, gy, indexes, ksize, stride, pad,
                                       in_dims)


@kernels.declare('max_pooling_2d_grad_grad')
def _max_pooling_2d_grad_grad(xp, ggx, indexes, ksize, stride, pad):
    """ggy (N, C, out_h, out_w): ggx read at the pixels indexes chose."""
    return _pooling.gather_from_windows(xp, ggx, indexes, ksize, stride,
                                        pad)


class MaxPooling2D(MaxPoolingND):
    """Two-dimensional max pooling."""

    _name = 'max_pooling_2d'
    _kernels = ('max_pooling_2d', 'max_pooling_2d_grad',
                'max_pooling_2d_grad_grad')

    def __init__(self, ksize, stride=None, pad=0, cover_all=True,
                 return_indices=False):
        super().__init__(2, ksize, stride, pad, cover_all, return_indices)


def max_pooling_2d(x, ksize, stride=None, pad=0, cover_all=True,
                   return_indices=False):
    """Two-dimensional spatial max pooling.

    .. math::
        y_{n,c,i,j} = \\max_{0 \\le u < k_H,\\, 0 \\le v < k_W}
            \\tilde x_{n,c,\\; s_Y i + u - p_H,\\; s_X j + v - p_W}

    where :math:`\\tilde x` is ``x`` padded with :math:`-\\infty`. The
    output height is ``(H + 2 p_H - k_H + s_Y - 1) // s_Y + 1`` with
    ``cover_all`` (the default) and ``(H + 2 p_H - k_H) // s_Y + 1``
    without; likewise the width.

    Args:
        x (Variable or array): input of shape ``(N, C, H, W)``.
        ksize (int or pair of ints): window size ``(k_H, k_W)``.
        stride (int or pair of ints or None): stride; None means ``ksize``.
        pad (int or pair of ints): padding ``(p_H, p_W)``.
        cover_all (bool): enlarge the output so that every input pixel is
            in some window.
        return_indices (bool): also return, for each output, the tap
            ``u * k_W + v`` of its window that held the maximum (the input
            of :func:`upsampling_2d`).

    Returns:
        Variable of shape ``(N, C, out_h, out_w)``, or the tuple of it and
        the int32 array of indices (on the device of ``x``).
    """
    node = MaxPooling2D(ksize, stride, pad, cover_all, return_indices)
    y, = node.apply((x,))
    if return_indices:
        return y, node.indexes
    return y
