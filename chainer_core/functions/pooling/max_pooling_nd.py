"""max_pooling_nd: the maximum of each window of an N-dimensional input.

The forward pass keeps, for every output, which tap of its window held the
maximum. The gradient scatters the output gradient to those pixels, and its
own gradient gathers from them, so max pooling is differentiable twice.
"""
import numpy

from chainer_core._runtime import graphs, kernels
from chainer_core import function_node
from chainer_core.functions.pooling import _pooling
from chainer_core.utils import conv_nd
from chainer_core.utils import type_check


def max_pool(xp, x, ksize, stride, pad, cover_all):
    """(y, indexes): the window maxima of x and the tap of each, in
    ``[0, prod(ksize))`` (row-major over the window; the first maximum)."""
    n = len(ksize)
    col = conv_nd.im2col_nd(x, ksize, stride, pad, cover_all,
                            pval=-numpy.inf, xp=xp)
    out_dims = col.shape[2 + n:]
    col = col.reshape(x.shape[:2] + (_pooling.prod(ksize),) + out_dims)
    indexes = col.argmax(axis=2)
    y = xp.take_along_axis(col, indexes[:, :, None], axis=2)[:, :, 0]
    return y, indexes.astype(numpy.int32)


@kernels.declare('max_pooling_nd')
def _max_pooling_nd(xp, x, ksize, stride, pad, cover_all):
    """(y, indexes): maxima of the windows of x (N, C, *in) padded with
    -inf, and the window tap (int32, row-major) that held each."""
    return max_pool(xp, x, ksize, stride, pad, cover_all)


@kernels.declare('max_pooling_nd_grad')
def _max_pooling_nd_grad(xp, gy, indexes, in_dims, ksize, stride, pad):
    """gx (N, C, *in_dims): gy added at the pixels the taps indexes chose."""
    return _pooling.scatter_to_windows(xp, gy, indexes, ksize, stride, pad,
                                       in_dims)


@kernels.declare('max_pooling_nd_grad_grad')
def _max_pooling_nd_grad_grad(xp, ggx, indexes, ksize, stride, pad):
    """ggy (N, C, *out): ggx read at the pixels the taps indexes chose."""
    return _pooling.gather_from_windows(xp, ggx, indexes, ksize, stride,
                                        pad)


class MaxPoolingND(function_node.FunctionNode):
    """N-dimensional max pooling."""

    _name = 'max_pooling_nd'
    _kernels = ('max_pooling_nd', 'max_pooling_nd_grad',
                'max_pooling_nd_grad_grad')
    # One computation for every number of spatial axes, 2-D included.
    graph_kernel = graphs.declare(
        'max_pooling_nd', ('ksize', 'stride', 'pad', 'cover_all'),
        'y (N, C, *out): the maxima of the windows of x (N, C, *in) padded '
        'with -inf, as the first output of the kernel max_pooling_nd; '
        'ksize, stride and pad are tuples of ints per spatial axis.',
        # Its gradient routes through the argmax forward found.
        derivative='fused')

    def __init__(self, ndim, ksize, stride=None, pad=0, cover_all=True,
                 return_indices=False):
        self.ndim = ndim
        self.ksize, self.stride, self.pad = _pooling.check_window(
            self._name, ndim, ksize, stride, pad)
        self.cover_all = bool(cover_all)
        self.return_indices = return_indices
        self.indexes = None

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        x_type = in_types[0]
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == self.ndim + 2,
        )

    def graph_kernel_params(self, inputs):
        if self.return_indices:
            # The caller reads self.indexes, which only forward sets.
            return None
        _pooling.pooled_dims(self._name, inputs[0].shape[2:], self.ksize,
                             self.stride, self.pad, self.cover_all)
        return {'ksize': self.ksize, 'stride': self.stride, 'pad': self.pad,
                'cover_all': self.cover_all}

    def forward(self, inputs):
        x, = inputs
        self._in_dims = x.shape[2:]
        _pooling.pooled_dims(self._name, x.shape[2:], self.ksize,
                             self.stride, self.pad, self.cover_all)
        y, self.indexes = kernels.lookup(self._kernels[0], x)(
            x, self.ksize, self.stride, self.pad, self.cover_all)
        return y,

    def backward(self, indexes, grad_outputs):
        return MaxPoolingNDGrad(self).apply(grad_outputs)


class MaxPoolingNDGrad(function_node.FunctionNode):
    """The gradient of max pooling: ``gy`` scattered to the maxima."""

    def __init__(self, pool_node):
        self.pool_node = pool_node

    def forward(self, inputs):
        gy, = inputs
        p = self.pool_node
        return kernels.lookup(p._kernels[1], gy)(
            gy, p.indexes, p._in_dims, p.ksize, p.stride, p.pad),

    def backward(self, indexes, grad_outputs):
        return MaxPoolingNDWithIndexes(self.pool_node).apply(grad_outputs)


class MaxPoolingNDWithIndexes(function_node.FunctionNode):
    """Reads its input where a max pooling found its maxima."""

    def __init__(self, pool_node):
        self.pool_node = pool_node

    def forward(self, inputs):
        x, = inputs
        p = self.pool_node
        return kernels.lookup(p._kernels[2], x)(
            x, p.indexes, p.ksize, p.stride, p.pad),

    def backward(self, indexes, grad_outputs):
        return MaxPoolingNDGrad(self.pool_node).apply(grad_outputs)


def max_pooling_nd(x, ksize, stride=None, pad=0, cover_all=True,
                   return_indices=False):
    """N-dimensionally spatial max pooling.

    .. math::
        y_{n,c,i} = \\max_{j} \\tilde x_{n,c,\\; s i + j - p}

    over the window taps ``j`` in ``[0, k)`` per axis, where
    :math:`\\tilde x` is ``x`` padded with :math:`-\\infty`. The output
    length per axis is ``(d + 2p - k + s - 1) // s + 1`` with
    ``cover_all`` (the default), ``(d + 2p - k) // s + 1`` without.

    Args:
        x (Variable or array): input of shape ``(N, C, d_1, ..., d_n)``.
        ksize (int or tuple of ints): window size.
        stride (int or tuple of ints or None): stride; None means
            ``ksize``.
        pad (int or tuple of ints): padding on both sides of each axis.
        cover_all (bool): enlarge the output so that every input pixel is
            in some window.
        return_indices (bool): also return, for each output, the tap of its
            window (row-major, in ``[0, prod(ksize))``) that held the
            maximum.

    Returns:
        Variable of shape ``(N, C, o_1, ..., o_n)``, or the tuple of it and
        the int32 array of indices (on the device of ``x``).
    """
    ndim = len(x.shape) - 2
    if ndim < 1:
        raise ValueError('max_pooling_nd: x must have at least 3 axes '
                         '(N, C, d_1, ...), got shape {}'.format(x.shape))
    node = MaxPoolingND(ndim, ksize, stride, pad, cover_all, return_indices)
    y, = node.apply((x,))
    if return_indices:
        return y, node.indexes
    return y


max_pooling_1d = _pooling.fixed_ndim(max_pooling_nd, 1)
max_pooling_3d = _pooling.fixed_ndim(max_pooling_nd, 3)
