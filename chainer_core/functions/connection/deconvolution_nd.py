"""deconvolution_nd: N-dimensional transposed convolution.

The transposed convolution is the adjoint of :func:`convolution_nd` with
respect to its input: each input pixel spreads its filter-weighted values
over a window of the output (a matrix product followed by col2im). Its
gradients are a convolution (for ``x``) and a convolution filter gradient
(for ``W``), both differentiable again. As for the convolution, ``W`` and
``b`` may have float dtypes other than ``x``'s.
"""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.connection import _convolution as _cv
from chainer_core.functions.connection.convolution_nd import ConvolutionND
from chainer_core.functions.math.matmul import as_dtype, promote
from chainer_core.utils import conv
from chainer_core.utils import type_check


@kernels.declare('deconvolution_nd')
def _deconvolution_nd(xp, x, W, b, stride, pad, dilate, groups, outsize):
    """y (N, Cout, *outsize) = transposed convolution of x (N, Cin, *in)
    with W (Cin, Cout/groups, *k), plus b (Cout,) or None."""
    return _cv.deconv_forward(xp, x, W, b, stride, pad, dilate, groups,
                              outsize)


class DeconvolutionND(function_node.FunctionNode):
    """N-dimensional transposed convolution."""

    _name = 'deconvolution_nd'
    _kernel = 'deconvolution_nd'

    def __init__(self, ndim, stride=1, pad=0, outsize=None, dilate=1,
                 groups=1):
        self.ndim = ndim
        self.stride, self.pad, self.dilate, self.groups = \
            _cv.check_conv_params(self._name, ndim, stride, pad, dilate,
                                  groups)
        self.outsize = _cv.check_outsize(self._name, outsize, ndim)
        self.cover_all = False

    def check_type_forward(self, in_types):
        _cv.check_conv_types(in_types, self.ndim, self.groups, 0)
        if self.outsize is None:
            return
        x_type, w_type = in_types[:2]
        for i in range(self.ndim):
            # The input length must be what a convolution of the requested
            # output gives, with or without cover_all.
            k = type_check.eval(w_type.shape[2 + i])
            args = (self.outsize[i], k, self.stride[i], self.pad[i])
            low = conv.get_conv_outsize(*args, d=self.dilate[i])
            high = conv.get_conv_outsize(*args, cover_all=True,
                                         d=self.dilate[i])
            type_check.expect(
                x_type.shape[2 + i] >= type_check.make_variable(
                    low, 'conv_outsize(outsize[{}])'.format(i)),
                x_type.shape[2 + i] <= type_check.make_variable(
                    high, 'conv_outsize_cover_all(outsize[{}])'.format(i)),
            )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        b = inputs[2] if len(inputs) == 3 else None
        x, W, b = promote(inputs[0], inputs[1], b)
        in_dims = x.shape[2:]
        ksize = W.shape[2:]
        outsize = self.outsize
        if outsize is None:
            outsize = tuple(
                conv.get_deconv_outsize(d, k, s, p, d=dl)
                for d, k, s, p, dl in zip(in_dims, ksize, self.stride,
                                          self.pad, self.dilate))
            _cv.check_positive_output(self._name, in_dims, outsize)
        self.cover_all = any(
            d != conv.get_conv_outsize(o, k, s, p, d=dl)
            for d, o, k, s, p, dl in zip(in_dims, outsize, ksize,
                                         self.stride, self.pad, self.dilate))
        y = kernels.lookup(self._kernel, x)(
            x, W, b, self.stride, self.pad, self.dilate, self.groups,
            outsize)
        return y.astype(inputs[0].dtype, copy=False),

    def _convolution(self):
        return ConvolutionND(self.ndim, self.stride, self.pad,
                             self.cover_all, self.dilate, self.groups)

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.sum import sum as sum_
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        conv_node = self._convolution()
        ret = []
        if 0 in indexes:
            ret.append(conv_node.apply((gy, W))[0])
        if 1 in indexes:
            grad_w = conv_node._grad_w(W.shape[2:])
            ret.append(as_dtype(grad_w.apply((gy, x))[0], W.dtype))
        if 2 in indexes:
            axes = (0,) + tuple(range(2, gy.ndim))
            ret.append(as_dtype(sum_(gy, axis=axes), self.inputs[2].dtype))
        return tuple(ret)


def deconvolution_nd(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1,
                     groups=1):
    """N-dimensional transposed convolution (deconvolution).

    The adjoint of :func:`convolution_nd` with respect to its input:
    with ``x`` of shape :math:`(N, C_{in}, d_1, \\ldots, d_n)` and ``W`` of
    shape :math:`(C_{in}, C_{out} / G, k_1, \\ldots, k_n)`,

    .. math::
        y_{n,\\,g(c) C_{out}/G + o,\\; s i + \\delta j - p}
            \\mathrel{+}= W_{c,o,j}\\, x_{n,c,i}

    summed over input positions ``i``, taps ``j`` and the input channels
    ``c`` of each group, plus ``b``. The output length along each axis is
    ``outsize``, by default ``s (d - 1) + dk - 2p`` with
    ``dk = (k - 1) * dilate + 1``.

    Args:
        x (Variable or array): input of shape ``(N, C_in, d_1, ..., d_n)``.
        W (Variable or array): filters of shape ``(C_in, C_out / groups,
            k_1, ..., k_n)``.
        b (Variable or array): bias of shape ``(C_out,)``, or None. ``W``
            and ``b`` may have float dtypes other than ``x``'s.
        stride (int or tuple of ints): stride per spatial axis.
        pad (int or tuple of ints): padding cropped from both sides.
        outsize (tuple of ints): the output's spatial shape; it must be one
            a convolution with these parameters maps back onto ``x``'s
            (with or without ``cover_all``).
        dilate (int or tuple of ints): spacing between kernel taps.
        groups (int): number of channel groups.

    Returns:
        Variable of shape ``(N, C_out, o_1, ..., o_n)`` and the dtype of
        ``x``.
    """
    ndim = len(x.shape) - 2
    if ndim < 1:
        raise ValueError('deconvolution_nd: x must have at least 3 axes '
                         '(N, C, d_1, ...), got shape {}'.format(x.shape))
    node = DeconvolutionND(ndim, stride, pad, outsize, dilate, groups)
    args = (x, W) if b is None else (x, W, b)
    return node.apply(args)[0]


def deconvolution_1d(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1,
                     groups=1):
    """One-dimensional transposed convolution: :func:`deconvolution_nd`
    for ``x`` of shape ``(N, C_in, L)`` and ``W`` of shape
    ``(C_in, C_out / groups, k)``.

    Raises:
        ValueError: ``x`` does not have exactly three axes.
    """
    _cv.check_spatial_axes('deconvolution_1d', x, 1)
    return deconvolution_nd(x, W, b, stride, pad, outsize, dilate, groups)


def deconvolution_3d(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1,
                     groups=1):
    """Three-dimensional transposed convolution: :func:`deconvolution_nd`
    for ``x`` of shape ``(N, C_in, D, H, W)`` and ``W`` of shape
    ``(C_in, C_out / groups, k_D, k_H, k_W)``.

    Raises:
        ValueError: ``x`` does not have exactly five axes.
    """
    _cv.check_spatial_axes('deconvolution_3d', x, 3)
    return deconvolution_nd(x, W, b, stride, pad, outsize, dilate, groups)
