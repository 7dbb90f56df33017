"""upsampling_2d: each input pixel put back at the window tap a max pooling
chose for it (the rest of the output is zero).

It is linear in ``x``; its gradient reads the output gradient at those
taps, and the gradient of that is the upsampling again.
"""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.connection._convolution import check_outsize
from chainer_core.functions.pooling import _pooling
from chainer_core.utils import conv
from chainer_core.utils import type_check


@kernels.declare('upsampling_2d')
def _upsampling_2d(xp, x, indexes, ksize, stride, pad, outsize):
    """y (N, C, *outsize): zero except that each pixel of x (N, C, h, w) is
    added at tap indexes (ky * kw + kx) of its window."""
    return _pooling.scatter_to_windows(xp, x, indexes, ksize, stride, pad,
                                       outsize)


@kernels.declare('upsampling_2d_grad')
def _upsampling_2d_grad(xp, gy, indexes, ksize, stride, pad):
    """gx (N, C, h, w): gy read at tap indexes of each window."""
    return _pooling.gather_from_windows(xp, gy, indexes, ksize, stride, pad)


class Upsampling2D(function_node.FunctionNode):
    """Upsampling by the indices of a max pooling."""

    def __init__(self, indexes, ksize, stride=None, pad=0, outsize=None,
                 cover_all=True):
        self.ksize, self.stride, self.pad = _pooling.check_window(
            'upsampling_2d', 2, ksize, stride, pad)
        self.outsize = check_outsize('upsampling_2d', outsize, 2)
        self.cover_all = bool(cover_all)
        if not hasattr(indexes, 'dtype') or indexes.dtype.kind not in 'iu':
            raise TypeError(
                'upsampling_2d: indexes must be an integer array (from '
                'max_pooling_2d with return_indices=True), got {}'.format(
                    getattr(indexes, 'dtype', type(indexes).__name__)))
        self.indexes = indexes

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        x_type = in_types[0]
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 4,
            x_type.shape == type_check.make_variable(
                tuple(self.indexes.shape), 'indexes.shape'),
        )
        if self.outsize is not None:
            for i in range(2):
                expected = conv.get_conv_outsize(
                    self.outsize[i], self.ksize[i], self.stride[i],
                    self.pad[i], self.cover_all)
                type_check.expect(x_type.shape[2 + i] ==
                                  type_check.make_variable(
                                      expected,
                                      'conv_outsize(outsize[{}])'.format(i)))

    def forward(self, inputs):
        x, = inputs
        n_taps = self.ksize[0] * self.ksize[1]
        if self.indexes.size and (int(self.indexes.min()) < 0 or
                                  int(self.indexes.max()) >= n_taps):
            raise ValueError(
                'upsampling_2d: indexes must be in [0, {}) (taps of a {} '
                'window), got values in [{}, {}]'.format(
                    n_taps, self.ksize, int(self.indexes.min()),
                    int(self.indexes.max())))
        outsize = self.outsize
        if outsize is None:
            outsize = tuple(
                conv.get_deconv_outsize(d, k, s, p, self.cover_all)
                for d, k, s, p in zip(x.shape[2:], self.ksize, self.stride,
                                      self.pad))
            if any(o <= 0 for o in outsize):
                raise ValueError(
                    'upsampling_2d: the output would have the spatial shape '
                    '{} for x of spatial shape {}'.format(outsize,
                                                          x.shape[2:]))
        self._outsize = outsize
        return kernels.lookup('upsampling_2d', x)(
            x, self.indexes, self.ksize, self.stride, self.pad, outsize),

    def backward(self, indexes, grad_outputs):
        return Upsampling2DGrad(self).apply(grad_outputs)


class Upsampling2DGrad(function_node.FunctionNode):
    """The gradient of upsampling: ``gy`` read at the chosen taps."""

    def __init__(self, up_node):
        self.up_node = up_node

    def forward(self, inputs):
        gy, = inputs
        u = self.up_node
        return kernels.lookup('upsampling_2d_grad', gy)(
            gy, u.indexes, u.ksize, u.stride, u.pad),

    def backward(self, indexes, grad_outputs):
        u = self.up_node
        return Upsampling2D(u.indexes, u.ksize, u.stride, u.pad, u._outsize,
                            u.cover_all).apply(grad_outputs)


def upsampling_2d(x, indexes, ksize, stride=None, pad=0, outsize=None,
                  cover_all=True):
    """Upsampling by the indices of :func:`max_pooling_2d`.

    The inverse in shape of a max pooling with the same ``ksize``,
    ``stride``, ``pad`` and ``cover_all``: the output is zero except that
    each input pixel ``x[n, c, i, j]`` is added at tap
    ``indexes[n, c, i, j] = u * k_W + v`` of its window, the output pixel
    ``(s_Y i + u - p_H, s_X j + v - p_W)`` (taps in the padding are
    dropped).

    Args:
        x (Variable or array): input of shape ``(N, C, H, W)``.
        indexes (array): integer taps of ``x``'s shape, as returned by
            ``max_pooling_2d(..., return_indices=True)``.
        ksize (int or pair of ints): window size ``(k_H, k_W)``.
        stride (int or pair of ints or None): stride; None means ``ksize``.
        pad (int or pair of ints): padding ``(p_H, p_W)``.
        outsize (pair of ints): the output's ``(out_h, out_w)``; by default
            ``s_Y (H - 1) + k_H - 2 p_H`` (``- s_Y + 1`` more with
            ``cover_all``), likewise the width.
        cover_all (bool): the ``cover_all`` of the pooling this inverts.

    Returns:
        Variable of shape ``(N, C, out_h, out_w)``.
    """
    if hasattr(indexes, 'array'):
        indexes = indexes.array
    return Upsampling2D(indexes, ksize, stride, pad, outsize,
                        cover_all).apply((x,))[0]
