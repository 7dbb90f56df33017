"""convolution_nd: N-dimensional convolution (cross-correlation) with
stride, padding, dilation and groups.

The forward pass extracts the patches of ``x`` (im2col) and multiplies them
with the filters in one batched matrix product. The gradient with respect
to ``x`` is the transposed convolution (:func:`deconvolution_nd`) of the
output gradient, and the gradient with respect to ``W`` is
:class:`ConvolutionNDGradW`; both are differentiable again, so convolutions
support double backprop.

``W`` and ``b`` may have float dtypes other than ``x``'s: the convolution
is computed in the widest and returned in ``x``'s dtype, and each gradient
has the dtype of its input.
"""
from chainer_core._runtime import graphs, kernels
from chainer_core import function_node
from chainer_core.functions.connection import _convolution as _cv
from chainer_core.functions.math.matmul import as_dtype, promote
from chainer_core.utils import conv


@kernels.declare('convolution_nd')
def _convolution_nd(xp, x, W, b, stride, pad, dilate, groups, cover_all):
    """y (N, O, *out) = x (N, C, *in) convolved with W (O, C/groups, *k),
    plus b (O,) or None; stride, pad, dilate are tuples per spatial axis."""
    return _cv.conv_forward(xp, x, W, b, stride, pad, dilate, groups,
                            cover_all)


@kernels.declare('convolution_nd_grad_w')
def _convolution_nd_grad_w(xp, x, gy, ksize, stride, pad, dilate, groups):
    """gW (O, C/groups, *ksize) of convolution_nd from x and the output
    gradient gy (N, O, *out)."""
    return _cv.conv_grad_w(xp, x, gy, ksize, stride, pad, dilate, groups)


class ConvolutionND(function_node.FunctionNode):
    """N-dimensional convolution ``y = x * W + b``."""

    _name = 'convolution_nd'
    _kernel = 'convolution_nd'
    # One computation for every number of spatial axes, 2-D included.
    graph_kernel = graphs.declare(
        'convolution_nd', ('stride', 'pad', 'dilate', 'groups', 'cover_all'),
        'y (N, O, *out) = x (N, C, *in) convolved with W (O, C/groups, *k), '
        'plus b (O,), for the inputs (x, W) or (x, W, b), as the kernel '
        'convolution_nd; stride, pad and dilate are tuples of ints per '
        "spatial axis. W and b may have float dtypes other than x's, the "
        "result has x's.",
        # Its gradients are convolutions whose geometry (output size,
        # cover_all) the op works out from its forward.
        derivative='fused')

    def __init__(self, ndim, stride=1, pad=0, cover_all=False, dilate=1,
                 groups=1):
        self.ndim = ndim
        self.stride, self.pad, self.dilate, self.groups = \
            _cv.check_conv_params(self._name, ndim, stride, pad, dilate,
                                  groups)
        self.cover_all = bool(cover_all)

    def check_type_forward(self, in_types):
        _cv.check_conv_types(in_types, self.ndim, self.groups, 1)

    def _check_output(self, x, W):
        in_dims = x.shape[2:]
        out_dims = tuple(
            conv.get_conv_outsize(d, k, s, p, self.cover_all, dl)
            for d, k, s, p, dl in zip(in_dims, W.shape[2:], self.stride,
                                      self.pad, self.dilate))
        _cv.check_positive_output(self._name, in_dims, out_dims)

    def graph_kernel_params(self, inputs):
        self._check_output(inputs[0], inputs[1])
        return {'stride': self.stride, 'pad': self.pad,
                'dilate': self.dilate, 'groups': self.groups,
                'cover_all': self.cover_all}

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        b = inputs[2] if len(inputs) == 3 else None
        x, W, b = promote(inputs[0], inputs[1], b)
        self._check_output(x, W)
        y = kernels.lookup(self._kernel, x)(
            x, W, b, self.stride, self.pad, self.dilate, self.groups,
            self.cover_all)
        return y.astype(inputs[0].dtype, copy=False),

    def _convolution(self, cover_all):
        return ConvolutionND(self.ndim, self.stride, self.pad, cover_all,
                             self.dilate, self.groups)

    def _deconvolution(self, outsize):
        from chainer_core.functions.connection.deconvolution_nd import \
            DeconvolutionND
        return DeconvolutionND(self.ndim, self.stride, self.pad, outsize,
                               self.dilate, self.groups)

    def _grad_w(self, ksize):
        return ConvolutionNDGradW(self, ksize)

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.sum import sum as sum_
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(self._deconvolution(x.shape[2:]).apply((gy, W))[0])
        if 1 in indexes:
            gW = self._grad_w(W.shape[2:]).apply((x, gy))[0]
            ret.append(as_dtype(gW, W.dtype))
        if 2 in indexes:
            axes = (0,) + tuple(range(2, gy.ndim))
            ret.append(as_dtype(sum_(gy, axis=axes), self.inputs[2].dtype))
        return tuple(ret)


class ConvolutionNDGradW(function_node.FunctionNode):
    """The filter gradient ``gW`` of a convolution, from ``x`` and ``gy``;
    bilinear in them, so it is differentiable again. It has the dtype of
    ``x``."""

    _kernel = 'convolution_nd_grad_w'

    def __init__(self, conv_node, ksize):
        self.conv_node = conv_node
        self.ksize = tuple(ksize)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = promote(*inputs)
        c = self.conv_node
        gW = kernels.lookup(self._kernel, x)(
            x, gy, self.ksize, c.stride, c.pad, c.dilate, c.groups)
        return gW.astype(inputs[0].dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggW, = grad_outputs
        c = self.conv_node
        ret = []
        if 0 in indexes:
            gx = c._deconvolution(x.shape[2:]).apply((gy, ggW))[0]
            ret.append(as_dtype(gx, x.dtype))
        if 1 in indexes:
            ggy = c._convolution(c.cover_all).apply((x, ggW))[0]
            ret.append(as_dtype(ggy, gy.dtype))
        return tuple(ret)


def convolution_nd(x, W, b=None, stride=1, pad=0, cover_all=False, dilate=1,
                   groups=1):
    """N-dimensional convolution.

    With ``x`` of shape :math:`(N, C, d_1, \\ldots, d_n)` and ``W`` of
    shape :math:`(O, C / G, k_1, \\ldots, k_n)` (``G = groups``),

    .. math::
        y_{n,o,i} = b_o + \\sum_{c, j} W_{o,c,j}\\,
            x_{n,\\,g(o) C/G + c,\\; s i + \\delta j - p}

    where :math:`g(o)` is the group of output channel ``o`` and ``x`` is
    zero outside its bounds. The output length along each axis is
    ``(d + 2p - dk) // s + 1`` with ``dk = (k - 1) * dilate + 1`` (with
    ``cover_all``, ``(d + 2p - dk + s - 1) // s + 1``).

    Args:
        x (Variable or array): input of shape ``(N, C, d_1, ..., d_n)``.
        W (Variable or array): filters of shape ``(O, C / groups, k_1,
            ..., k_n)``.
        b (Variable or array): bias of shape ``(O,)``, or None. ``W`` and
            ``b`` may have float dtypes other than ``x``'s.
        stride (int or tuple of ints): stride per spatial axis.
        pad (int or tuple of ints): zero padding on both sides of each axis.
        cover_all (bool): enlarge the output so that every input pixel is
            seen by some window.
        dilate (int or tuple of ints): spacing between kernel taps.
        groups (int): split the channels into this many groups, each
            convolved with its own filters.

    Returns:
        Variable of shape ``(N, O, o_1, ..., o_n)`` and the dtype of ``x``.
    """
    ndim = len(x.shape) - 2
    if ndim < 1:
        raise ValueError('convolution_nd: x must have at least 3 axes '
                         '(N, C, d_1, ...), got shape {}'.format(x.shape))
    node = ConvolutionND(ndim, stride, pad, cover_all, dilate, groups)
    args = (x, W) if b is None else (x, W, b)
    return node.apply(args)[0]


def convolution_1d(x, W, b=None, stride=1, pad=0, cover_all=False, dilate=1,
                   groups=1):
    """One-dimensional convolution: :func:`convolution_nd` for ``x`` of
    shape ``(N, C, L)`` and ``W`` of shape ``(O, C / groups, k)``.

    Raises:
        ValueError: ``x`` does not have exactly three axes.
    """
    _cv.check_spatial_axes('convolution_1d', x, 1)
    return convolution_nd(x, W, b, stride, pad, cover_all, dilate, groups)


def convolution_3d(x, W, b=None, stride=1, pad=0, cover_all=False, dilate=1,
                   groups=1):
    """Three-dimensional convolution: :func:`convolution_nd` for ``x`` of
    shape ``(N, C, D, H, W)`` and ``W`` of shape
    ``(O, C / groups, k_D, k_H, k_W)``.

    Raises:
        ValueError: ``x`` does not have exactly five axes.
    """
    _cv.check_spatial_axes('convolution_3d', x, 3)
    return convolution_nd(x, W, b, stride, pad, cover_all, dilate, groups)
