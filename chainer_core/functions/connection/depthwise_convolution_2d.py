"""depthwise_convolution_2d: each input channel convolved with its own
filters (a grouped convolution with one group per input channel)."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.connection import _convolution as _cv
from chainer_core.functions.math.matmul import as_dtype, promote
from chainer_core.utils import conv
from chainer_core.utils import type_check


def _grouped_filters(W):
    """(M, C, kh, kw) depthwise filters as (C * M, 1, kh, kw) grouped
    filters: output channel c * M + m is filter m of input channel c."""
    m, c, kh, kw = W.shape
    return W.transpose(1, 0, 2, 3).reshape(c * m, 1, kh, kw)


@kernels.declare('depthwise_convolution_2d')
def _depthwise_convolution_2d(xp, x, W, b, stride, pad):
    """y (N, C*M, out_h, out_w): channel c of x (N, C, H, W) convolved with
    each filter W[m, c] (W is (M, C, kh, kw)) into output channel c*M + m,
    plus b (C*M,) or None; stride and pad are pairs."""
    return _cv.conv_forward(xp, x, _grouped_filters(W), b, stride, pad,
                            (1, 1), x.shape[1], False)


class DepthwiseConvolution2D(function_node.FunctionNode):
    """Depthwise two-dimensional convolution, in the dtype of ``x``; ``W``
    and ``b`` may have other float dtypes."""

    def __init__(self, stride=1, pad=0):
        self.stride, self.pad, _, _ = _cv.check_conv_params(
            'depthwise_convolution_2d', 2, stride, pad, 1, 1)

    def check_type_forward(self, in_types):
        n_in = in_types.size()
        type_check.expect(2 <= n_in, n_in <= 3)
        type_check.argname(in_types, ('x', 'W', 'b'))
        x_type, w_type = in_types[:2]
        type_check.expect(
            x_type.dtype.kind == 'f',
            w_type.dtype.kind == 'f',
            x_type.ndim == 4,
            w_type.ndim == 4,
            x_type.shape[1] == w_type.shape[1],
        )
        if type_check.eval(n_in) == 3:
            b_type = in_types[2]
            type_check.expect(
                b_type.dtype.kind == 'f',
                b_type.ndim == 1,
                b_type.shape[0] == w_type.shape[0] * w_type.shape[1],
            )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        b = inputs[2] if len(inputs) == 3 else None
        x, W, b = promote(inputs[0], inputs[1], b)
        out_dims = tuple(
            conv.get_conv_outsize(d, k, s, p)
            for d, k, s, p in zip(x.shape[2:], W.shape[2:], self.stride,
                                  self.pad))
        _cv.check_positive_output('depthwise_convolution_2d', x.shape[2:],
                                  out_dims)
        y = kernels.lookup('depthwise_convolution_2d', x)(
            x, W, b, self.stride, self.pad)
        return y.astype(inputs[0].dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.reshape import reshape
        from chainer_core.functions.array.transpose import transpose
        from chainer_core.functions.connection.convolution_2d import \
            Convolution2DFunction
        from chainer_core.functions.math.sum import sum as sum_
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        m, c, kh, kw = W.shape
        grouped = Convolution2DFunction(self.stride, self.pad, groups=c)
        ret = []
        if 0 in indexes:
            w = reshape(transpose(W, (1, 0, 2, 3)), (c * m, 1, kh, kw))
            deconv = grouped._deconvolution(x.shape[2:])
            ret.append(deconv.apply((gy, w))[0])
        if 1 in indexes:
            gw = grouped._grad_w((kh, kw)).apply((x, gy))[0]
            gw = transpose(reshape(gw, (c, m, kh, kw)), (1, 0, 2, 3))
            ret.append(as_dtype(gw, W.dtype))
        if 2 in indexes:
            ret.append(as_dtype(sum_(gy, axis=(0, 2, 3)),
                                self.inputs[2].dtype))
        return tuple(ret)


def depthwise_convolution_2d(x, W, b=None, stride=1, pad=0):
    """Two-dimensional depthwise convolution.

    Each input channel ``c`` is convolved separately with each of its
    ``M`` filters ``W[m, c]`` (the channel multiplier ``M``); the result
    goes to output channel ``c * M + m``:

    .. math::
        y_{n,\\,cM+m,i,j} = b_{cM+m} + \\sum_{u,v} W_{m,c,u,v}\\,
            x_{n,c,\\; s_Y i + u - p_H,\\; s_X j + v - p_W}

    Args:
        x (Variable or array): input of shape ``(N, C, H, W)``.
        W (Variable or array): filters of shape ``(M, C, kh, kw)``.
        b (Variable or array): bias of shape ``(M * C,)``, or None. ``W``
            and ``b`` may have float dtypes other than ``x``'s.
        stride (int or pair of ints): ``(s_Y, s_X)``.
        pad (int or pair of ints): zero padding ``(p_H, p_W)``.

    Returns:
        Variable of the dtype of ``x`` and shape
        ``(N, C * M, out_h, out_w)`` with
        ``out_h = (H + 2 p_H - kh) // s_Y + 1`` (likewise ``out_w``).
    """
    node = DepthwiseConvolution2D(stride, pad)
    args = (x, W) if b is None else (x, W, b)
    return node.apply(args)[0]
