"""average_pooling_nd: the mean of each window of an N-dimensional input.

``pad_value=0`` divides every window sum by the window size (padding counts
as zeros); ``pad_value=None`` divides by the number of pixels of the window
inside the input. The gradient spreads the output gradient evenly over the
window; it is linear, and its gradient is the pooling again.
"""
import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.pooling import _pooling
from chainer_core.utils import conv_nd
from chainer_core.utils import type_check


def _divisor(xp, in_dims, out_dims, ksize, stride, pad, pad_value, dtype):
    """What each window sum is divided by: the window size, or (pad_value
    None) an array (*out) of the counts of pixels inside the input."""
    if pad_value is not None:
        return _pooling.prod(ksize)
    count = None
    for axis, (d, o, k, s, p) in enumerate(
            zip(in_dims, out_dims, ksize, stride, pad)):
        start = xp.arange(o) * s - p
        width = xp.minimum(start + k, d) - xp.maximum(start, 0)
        shape = [1] * len(in_dims)
        shape[axis] = o
        width = width.reshape(shape)
        count = width if count is None else count * width
    return count.astype(dtype)


def average_pool(xp, x, ksize, stride, pad, pad_value):
    n = len(ksize)
    col = conv_nd.im2col_nd(x, ksize, stride, pad, xp=xp)
    acc = numpy.float32 if x.dtype == numpy.float16 else x.dtype
    total = col.sum(axis=tuple(range(2, 2 + n)), dtype=acc)
    div = _divisor(xp, x.shape[2:], col.shape[2 + n:], ksize, stride, pad,
                   pad_value, acc)
    return (total / div).astype(x.dtype)


def average_pool_grad(xp, gy, in_dims, ksize, stride, pad, pad_value):
    n = len(ksize)
    out_dims = gy.shape[2:]
    div = _divisor(xp, in_dims, out_dims, ksize, stride, pad, pad_value,
                   gy.dtype)
    g = gy / div
    gcol = xp.broadcast_to(g.reshape(gy.shape[:2] + (1,) * n + out_dims),
                           gy.shape[:2] + tuple(ksize) + out_dims)
    return conv_nd.col2im_nd(gcol, stride, pad, in_dims, xp=xp)


@kernels.declare('average_pooling_nd')
def _average_pooling_nd(xp, x, ksize, stride, pad, pad_value):
    """y (N, C, *out): window sums of x (N, C, *in) divided by the window
    size (pad_value 0) or by the pixels inside x (pad_value None)."""
    return average_pool(xp, x, ksize, stride, pad, pad_value)


@kernels.declare('average_pooling_nd_grad')
def _average_pooling_nd_grad(xp, gy, in_dims, ksize, stride, pad,
                             pad_value):
    """gx (N, C, *in_dims): each output gradient divided as in the forward
    pass and added to every pixel of its window."""
    return average_pool_grad(xp, gy, in_dims, ksize, stride, pad, pad_value)


def check_pad_value(name, pad_value):
    if not (pad_value is None or (
            isinstance(pad_value, (int, float, numpy.number)) and
            not isinstance(pad_value, bool) and pad_value == 0)):
        raise ValueError('{}: pad_value must be 0 or None, got {!r}'.format(
            name, pad_value))
    return None if pad_value is None else 0


class AveragePoolingND(function_node.FunctionNode):
    """N-dimensional average pooling."""

    _name = 'average_pooling_nd'
    _kernels = ('average_pooling_nd', 'average_pooling_nd_grad')

    def __init__(self, ndim, ksize, stride=None, pad=0, cover_all=False,
                 pad_value=0):
        if cover_all:
            raise ValueError('{}: cover_all=True is not supported (average '
                             'pooling runs without cover_all)'.format(
                                 self._name))
        self.ndim = ndim
        self.ksize, self.stride, self.pad = _pooling.check_window(
            self._name, ndim, ksize, stride, pad)
        self.pad_value = check_pad_value(self._name, pad_value)

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        x_type = in_types[0]
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == self.ndim + 2,
        )

    def forward(self, inputs):
        x, = inputs
        self._in_dims = x.shape[2:]
        _pooling.pooled_dims(self._name, x.shape[2:], self.ksize,
                             self.stride, self.pad, False)
        return kernels.lookup(self._kernels[0], x)(
            x, self.ksize, self.stride, self.pad, self.pad_value),

    def _again(self):
        return AveragePoolingND(self.ndim, self.ksize, self.stride, self.pad,
                                pad_value=self.pad_value)

    def backward(self, indexes, grad_outputs):
        return AveragePoolingNDGrad(self).apply(grad_outputs)


class AveragePoolingNDGrad(function_node.FunctionNode):
    """The gradient of average pooling (the adjoint of the pooling)."""

    def __init__(self, pool_node):
        self.pool_node = pool_node

    def forward(self, inputs):
        gy, = inputs
        p = self.pool_node
        return kernels.lookup(p._kernels[1], gy)(
            gy, p._in_dims, p.ksize, p.stride, p.pad, p.pad_value),

    def backward(self, indexes, grad_outputs):
        return self.pool_node._again().apply(grad_outputs)


def average_pooling_nd(x, ksize, stride=None, pad=0, pad_value=0):
    """N-dimensionally spatial average pooling.

    .. math::
        y_{n,c,i} = \\frac{1}{D_i} \\sum_{j} \\tilde x_{n,c,\\; s i + j - p}

    over the window taps ``j`` in ``[0, k)`` per axis, where
    :math:`\\tilde x` is ``x`` padded with zeros. ``D_i`` is the window
    size :math:`\\prod k` with ``pad_value=0``, and the number of taps
    inside ``x`` with ``pad_value=None``. The output length per axis is
    ``(d + 2p - k) // s + 1`` (there is no ``cover_all`` mode).

    Args:
        x (Variable or array): input of shape ``(N, C, d_1, ..., d_n)``.
        ksize (int or tuple of ints): window size.
        stride (int or tuple of ints or None): stride; None means
            ``ksize``.
        pad (int or tuple of ints): padding on both sides of each axis.
        pad_value (0 or None): 0 averages the padding in as zeros; None
            leaves it out of the average.

    Returns:
        Variable of shape ``(N, C, o_1, ..., o_n)``.
    """
    ndim = len(x.shape) - 2
    if ndim < 1:
        raise ValueError('average_pooling_nd: x must have at least 3 axes '
                         '(N, C, d_1, ...), got shape {}'.format(x.shape))
    node = AveragePoolingND(ndim, ksize, stride, pad, pad_value=pad_value)
    return node.apply((x,))[0]


average_pooling_1d = _pooling.fixed_ndim(average_pooling_nd, 1)
average_pooling_3d = _pooling.fixed_ndim(average_pooling_nd, 3)
