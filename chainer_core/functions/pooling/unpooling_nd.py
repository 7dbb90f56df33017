"""unpooling_nd: the inverse of pooling in shape: every input pixel is
copied over its whole window of the output (overlapping windows add up).

It is linear; its gradient sums each window of the output gradient, and
the gradient of that is the unpooling again.
"""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.connection._convolution import check_outsize
from chainer_core.functions.pooling import _pooling
from chainer_core.utils import conv
from chainer_core.utils import conv_nd
from chainer_core.utils import type_check


def unpool(xp, x, ksize, stride, pad, outsize):
    n = len(ksize)
    col = xp.broadcast_to(x.reshape(x.shape[:2] + (1,) * n + x.shape[2:]),
                          x.shape[:2] + tuple(ksize) + x.shape[2:])
    return conv_nd.col2im_nd(col, stride, pad, outsize, xp=xp)


def unpool_grad(xp, gy, ksize, stride, pad, in_dims):
    n = len(ksize)
    col = conv_nd.im2col_nd(gy, ksize, stride, pad, out_dims=in_dims, xp=xp)
    return col.sum(axis=tuple(range(2, 2 + n)))


@kernels.declare('unpooling_nd')
def _unpooling_nd(xp, x, ksize, stride, pad, outsize):
    """y (N, C, *outsize): each pixel of x (N, C, *in) added over its
    window (taps j at s * i + j - p)."""
    return unpool(xp, x, ksize, stride, pad, outsize)


@kernels.declare('unpooling_nd_grad')
def _unpooling_nd_grad(xp, gy, ksize, stride, pad, in_dims):
    """gx (N, C, *in_dims): the sum of each window of gy."""
    return unpool_grad(xp, gy, ksize, stride, pad, in_dims)


class UnpoolingND(function_node.FunctionNode):
    """N-dimensional unpooling."""

    _name = 'unpooling_nd'
    _kernels = ('unpooling_nd', 'unpooling_nd_grad')

    def __init__(self, ndim, ksize, stride=None, pad=0, outsize=None,
                 cover_all=True):
        self.ndim = ndim
        self.ksize, self.stride, self.pad = _pooling.check_window(
            self._name, ndim, ksize, stride, pad)
        self.outsize = check_outsize(self._name, outsize, ndim)
        self.cover_all = bool(cover_all)

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        x_type = in_types[0]
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == self.ndim + 2,
        )
        if self.outsize is not None:
            for i in range(self.ndim):
                expected = conv.get_conv_outsize(
                    self.outsize[i], self.ksize[i], self.stride[i],
                    self.pad[i], self.cover_all)
                type_check.expect(x_type.shape[2 + i] ==
                                  type_check.make_variable(
                                      expected,
                                      'conv_outsize(outsize[{}])'.format(i)))

    def forward(self, inputs):
        x, = inputs
        self._in_dims = x.shape[2:]
        outsize = self.outsize
        if outsize is None:
            outsize = tuple(
                conv.get_deconv_outsize(d, k, s, p, self.cover_all)
                for d, k, s, p in zip(x.shape[2:], self.ksize, self.stride,
                                      self.pad))
            if any(o <= 0 for o in outsize):
                raise ValueError(
                    '{}: the output would have the spatial shape {} for x of '
                    'spatial shape {}'.format(self._name, outsize,
                                              x.shape[2:]))
        self._outsize = outsize
        return kernels.lookup(self._kernels[0], x)(
            x, self.ksize, self.stride, self.pad, outsize),

    def _again(self):
        return UnpoolingND(self.ndim, self.ksize, self.stride, self.pad,
                           self._outsize, self.cover_all)

    def backward(self, indexes, grad_outputs):
        return UnpoolingNDGrad(self).apply(grad_outputs)


class UnpoolingNDGrad(function_node.FunctionNode):
    """The gradient of unpooling: window sums of ``gy``."""

    def __init__(self, unpool_node):
        self.unpool_node = unpool_node

    def forward(self, inputs):
        gy, = inputs
        u = self.unpool_node
        return kernels.lookup(u._kernels[1], gy)(
            gy, u.ksize, u.stride, u.pad, u._in_dims),

    def backward(self, indexes, grad_outputs):
        return self.unpool_node._again().apply(grad_outputs)


def unpooling_nd(x, ksize, stride=None, pad=0, outsize=None, cover_all=True):
    """N-dimensional unpooling: pixels copied over their windows.

    .. math::
        y_{n,c,\\; s i + j - p} \\mathrel{+}= x_{n,c,i}

    for every input position ``i`` and window tap ``j`` in ``[0, k)`` per
    axis (taps outside the output are dropped). The default output length
    is ``s (d - 1) + k - 2p``, or ``s (d - 1) + k - s + 1 - 2p`` with
    ``cover_all`` (the default), so that pooling with the same parameters
    maps it back onto ``x``'s size.

    Args:
        x (Variable or array): input of shape ``(N, C, d_1, ..., d_n)``.
        ksize (int or tuple of ints): window size.
        stride (int or tuple of ints or None): stride; None means
            ``ksize``.
        pad (int or tuple of ints): padding cropped from each side.
        outsize (tuple of ints): the output's spatial shape; pooling it
            with these parameters must give ``x``'s.
        cover_all (bool): the ``cover_all`` of the pooling this inverts.

    Returns:
        Variable of shape ``(N, C, o_1, ..., o_n)``.
    """
    ndim = len(x.shape) - 2
    if ndim < 1:
        raise ValueError('unpooling_nd: x must have at least 3 axes '
                         '(N, C, d_1, ...), got shape {}'.format(x.shape))
    return UnpoolingND(ndim, ksize, stride, pad, outsize, cover_all).apply(
        (x,))[0]


unpooling_1d = _pooling.fixed_ndim(unpooling_nd, 1)
unpooling_3d = _pooling.fixed_ndim(unpooling_nd, 3)
