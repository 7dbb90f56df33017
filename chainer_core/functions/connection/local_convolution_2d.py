"""local_convolution_2d: a convolution whose filters differ at every output
position (a locally connected layer)."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.connection import _convolution as _cv
from chainer_core.utils import conv_nd
from chainer_core.utils import type_check


def _columns(xp, x, ksize, stride, out_dims):
    """Patches of x as (P, N, C*kh*kw), P = out_h * out_w."""
    col = conv_nd.im2col_nd(x, ksize, stride, 0, out_dims=out_dims, xp=xp)
    n = x.shape[0]
    return col.reshape(n, x.shape[1] * ksize[0] * ksize[1],
                       out_dims[0] * out_dims[1]).transpose(2, 0, 1)


def _filters(W):
    """W (O, oh, ow, C, kh, kw) as (P, O, C*kh*kw)."""
    o, oh, ow = W.shape[:3]
    return W.reshape(o, oh * ow, _cv._prod(W.shape[3:])).transpose(1, 0, 2)


@kernels.declare('local_convolution_2d')
def _local_convolution_2d(xp, x, W, b, stride):
    """y (N, O, oh, ow): the patch of x (N, C, H, W) at each output position
    (i, j) times its own filters W[:, i, j] (W is (O, oh, ow, C, kh, kw)),
    plus b (O, oh, ow) or None; no padding."""
    out_dims = W.shape[1:3]
    col = _columns(xp, x, W.shape[4:], stride, out_dims)
    w = _filters(W).transpose(0, 2, 1)
    y = _cv.matmul_acc(xp, col, w)
    y = y.transpose(1, 2, 0).reshape((x.shape[0], W.shape[0]) + out_dims)
    if b is not None:
        y += b
    return y


@kernels.declare('local_convolution_2d_grad_x')
def _local_convolution_2d_grad_x(xp, gy, W, x_shape, stride):
    """gx (x_shape) of local_convolution_2d from the output gradient gy
    (N, O, oh, ow) and the filters W."""
    n, o, oh, ow = gy.shape
    c, kh, kw = W.shape[3:]
    g = gy.reshape(n, o, oh * ow).transpose(2, 0, 1)
    gcol = _cv.matmul_acc(xp, g, _filters(W))
    gcol = gcol.transpose(1, 2, 0).reshape(n, c, kh, kw, oh, ow)
    return conv_nd.col2im_nd(gcol, stride, 0, x_shape[2:], xp=xp)


@kernels.declare('local_convolution_2d_grad_w')
def _local_convolution_2d_grad_w(xp, x, gy, ksize, stride):
    """gW (O, oh, ow, C, kh, kw) of local_convolution_2d from x and the
    output gradient gy (N, O, oh, ow)."""
    n, o, oh, ow = gy.shape
    col = _columns(xp, x, ksize, stride, (oh, ow))
    g = gy.reshape(n, o, oh * ow).transpose(2, 1, 0)
    gw = _cv.matmul_acc(xp, g, col)
    return gw.transpose(1, 0, 2).reshape(
        (o, oh, ow, x.shape[1]) + tuple(ksize))


class LocalConvolution2DFunction(function_node.FunctionNode):
    """Locally connected two-dimensional convolution."""

    def __init__(self, stride=1):
        self.stride, _, _, _ = _cv.check_conv_params(
            'local_convolution_2d', 2, stride, 0, 1, 1)

    def check_type_forward(self, in_types):
        n_in = in_types.size()
        type_check.expect(2 <= n_in, n_in <= 3)
        type_check.argname(in_types, ('x', 'W', 'b'))
        x_type, w_type = in_types[:2]
        type_check.expect(
            x_type.dtype.kind == 'f',
            w_type.dtype == x_type.dtype,
            x_type.ndim == 4,
            w_type.ndim == 6,
            x_type.shape[1] == w_type.shape[3],
        )
        sy = type_check.make_variable(self.stride[0], 'stride[0]')
        sx = type_check.make_variable(self.stride[1], 'stride[1]')
        # The output positions given by W must fit in x.
        type_check.expect(
            (w_type.shape[1] - 1) * sy + w_type.shape[4] <= x_type.shape[2],
            (w_type.shape[2] - 1) * sx + w_type.shape[5] <= x_type.shape[3],
        )
        if type_check.eval(n_in) == 3:
            b_type = in_types[2]
            type_check.expect(
                b_type.dtype == x_type.dtype,
                b_type.ndim == 3,
                b_type.shape == w_type.shape[:3],
            )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        return kernels.lookup('local_convolution_2d', x)(
            x, W, b, self.stride),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.sum import sum as sum_
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(LocalConvolution2DGradX(self.stride, x.shape).apply(
                (gy, W))[0])
        if 1 in indexes:
            ret.append(LocalConvolution2DGradW(self.stride, W.shape[4:])
                       .apply((x, gy))[0])
        if 2 in indexes:
            ret.append(sum_(gy, axis=0))
        return tuple(ret)


class LocalConvolution2DGradX(function_node.FunctionNode):
    """``gx`` of a local convolution, bilinear in ``gy`` and ``W``."""

    def __init__(self, stride, x_shape):
        self.stride = stride
        self.x_shape = tuple(x_shape)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        gy, W = inputs
        return kernels.lookup('local_convolution_2d_grad_x', gy)(
            gy, W, self.x_shape, self.stride),

    def backward(self, indexes, grad_outputs):
        gy, W = self.get_retained_inputs()
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(LocalConvolution2DFunction(self.stride).apply(
                (ggx, W))[0])
        if 1 in indexes:
            ret.append(LocalConvolution2DGradW(self.stride, W.shape[4:])
                       .apply((ggx, gy))[0])
        return tuple(ret)


class LocalConvolution2DGradW(function_node.FunctionNode):
    """``gW`` of a local convolution, bilinear in ``x`` and ``gy``."""

    def __init__(self, stride, ksize):
        self.stride = stride
        self.ksize = tuple(ksize)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        return kernels.lookup('local_convolution_2d_grad_w', x)(
            x, gy, self.ksize, self.stride),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggW, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(LocalConvolution2DGradX(self.stride, x.shape).apply(
                (gy, ggW))[0])
        if 1 in indexes:
            ret.append(LocalConvolution2DFunction(self.stride).apply(
                (x, ggW))[0])
        return tuple(ret)


def local_convolution_2d(x, W, b=None, stride=1):
    """Two-dimensional local convolution (unshared filters).

    Like :func:`convolution_2d` without padding, except that every output
    position ``(i, j)`` has its own filters:

    .. math::
        y_{n,o,i,j} = b_{o,i,j} + \\sum_{c,u,v} W_{o,i,j,c,u,v}\\,
            x_{n,c,\\; s_Y i + u,\\; s_X j + v}

    Args:
        x (Variable or array): input of shape ``(N, C, H, W)``.
        W (Variable or array): filters of shape
            ``(O, out_h, out_w, C, kh, kw)``, of ``x``'s dtype; the output
            size is taken from it and must fit in ``x``:
            ``(out_h - 1) * s_Y + kh <= H`` (likewise the width).
        b (Variable or array): bias of shape ``(O, out_h, out_w)``, or None.
        stride (int or pair of ints): ``(s_Y, s_X)``.

    Returns:
        Variable of shape ``(N, O, out_h, out_w)``.
    """
    node = LocalConvolution2DFunction(stride)
    args = (x, W) if b is None else (x, W, b)
    return node.apply(args)[0]
