"""deformable_convolution_2d_sampler: a convolution whose kernel taps are
moved by learned, per-position fractional offsets and read by bilinear
interpolation."""
import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.connection import _convolution as _cv
from chainer_core.utils import conv
from chainer_core.utils import type_check


def _corners(xp, x, offset, ksize, stride, pad):
    """The bilinear reads of the moved taps.

    Returns ``(flat, weights, dweights)``, each a list over the four
    neighbouring pixels of every sampling point: ``flat`` their indices
    into ``x.reshape(N, C, H * W)`` (N, T, P), ``weights`` their bilinear
    weights with pixels outside ``x`` weighted 0, and ``dweights`` the
    derivatives of those weights by the (y, x) sampling coordinates.
    """
    n, _, h, w = x.shape
    kh, kw = ksize
    out_h, out_w = offset.shape[2:]
    t = kh * kw
    off = offset.astype(numpy.float64)
    oy = (xp.arange(out_h) * stride[0] - pad[0]).astype(numpy.float64)
    ox = (xp.arange(out_w) * stride[1] - pad[1]).astype(numpy.float64)
    ty = xp.repeat(xp.arange(kh), kw).astype(numpy.float64)
    tx = xp.tile(xp.arange(kw), kh).astype(numpy.float64)
    # The first T offset channels move the taps along x, the last T along y.
    py = off[:, t:] + ty[None, :, None, None] + oy[None, None, :, None]
    px = off[:, :t] + tx[None, :, None, None] + ox[None, None, None, :]
    y0 = xp.floor(py)
    x0 = xp.floor(px)
    fy = py - y0
    fx = px - x0
    flat, weights, dweights = [], [], []
    for dy in (0, 1):
        wy = fy if dy else 1 - fy
        sy = 1.0 if dy else -1.0
        yy = y0 + dy
        for dx in (0, 1):
            wx = fx if dx else 1 - fx
            sx = 1.0 if dx else -1.0
            xx = x0 + dx
            inside = (yy >= 0) & (yy < h) & (xx >= 0) & (xx < w)
            idx = xp.where(inside, yy * w + xx, 0).astype(numpy.int64)
            flat.append(idx.reshape(n, t, -1))
            weights.append((wy * wx * inside).reshape(n, 1, t, -1))
            dweights.append(((sy * wx * inside).reshape(n, 1, t, -1),
                             (wy * sx * inside).reshape(n, 1, t, -1)))
    return flat, weights, dweights


def _gather(xp, xr, idx):
    """xr (N, C, HW) read at idx (N, T, P): (N, C, T, P)."""
    n, c = xr.shape[:2]
    return xr[xp.arange(n)[:, None, None, None],
              xp.arange(c)[None, :, None, None], idx[:, None]]


def _sample(xp, x, offset, ksize, stride, pad):
    """The moved patches of x as columns (N, C, T, P), in float64."""
    flat, weights, _ = _corners(xp, x, offset, ksize, stride, pad)
    xr = x.reshape(x.shape[0], x.shape[1], -1).astype(numpy.float64)
    col = 0
    for idx, wt in zip(flat, weights):
        col = col + wt * _gather(xp, xr, idx)
    return col


@kernels.declare('deformable_convolution_2d_sampler')
def _deformable_convolution_2d_sampler(xp, x, offset, W, b, stride, pad):
    """y (N, O, out_h, out_w): x (N, C, H, W) read by bilinear
    interpolation (zero outside) at the kernel taps of W (O, C, kh, kw)
    moved by offset (N, 2*kh*kw, out_h, out_w: x shifts, then y shifts),
    times W, plus b (O,) or None."""
    n = x.shape[0]
    out_dims = offset.shape[2:]
    col = _sample(xp, x, offset, W.shape[2:], stride, pad)
    col = col.reshape(n, -1, out_dims[0] * out_dims[1])
    w = W.reshape(W.shape[0], -1).astype(numpy.float64)
    y = xp.matmul(w, col).reshape((n, W.shape[0]) + tuple(out_dims))
    if b is not None:
        y += b.reshape(1, -1, 1, 1)
    return y.astype(x.dtype)


@kernels.declare('deformable_convolution_2d_sampler_grad')
def _deformable_convolution_2d_sampler_grad(xp, x, offset, W, gy, stride,
                                            pad):
    """(gx, goffset, gW) of deformable_convolution_2d_sampler (bias
    excluded) from the output gradient gy (N, O, out_h, out_w)."""
    n, c, h, w = x.shape
    o, _, kh, kw = W.shape
    t = kh * kw
    p = gy.shape[2] * gy.shape[3]
    flat, weights, dweights = _corners(xp, x, offset, (kh, kw), stride, pad)
    xr = x.reshape(n, c, h * w).astype(numpy.float64)
    g = gy.reshape(n, o, p).astype(numpy.float64)
    w64 = W.reshape(o, c * t).astype(numpy.float64)
    gcol = xp.matmul(w64.T, g).reshape(n, c, t, p)
    col = 0
    goff_y = 0
    goff_x = 0
    gx = xp.zeros(n * c * h * w, dtype=numpy.float64)
    base = (xp.arange(n)[:, None, None, None] * c +
            xp.arange(c)[None, :, None, None]) * (h * w)
    for idx, wt, (dwy, dwx) in zip(flat, weights, dweights):
        v = _gather(xp, xr, idx)
        col = col + wt * v
        goff_y = goff_y + (gcol * dwy * v).sum(axis=1)
        goff_x = goff_x + (gcol * dwx * v).sum(axis=1)
        target = (base + idx[:, None]).ravel()
        gx += xp.bincount(target, weights=(gcol * wt).ravel(),
                          minlength=gx.size)
    gW = xp.matmul(g, col.reshape(n, c * t, p).transpose(0, 2, 1)).sum(0)
    goffset = xp.concatenate([goff_x, goff_y], axis=1).reshape(offset.shape)
    return (gx.reshape(x.shape).astype(x.dtype),
            goffset.astype(offset.dtype),
            gW.reshape(W.shape).astype(W.dtype))


class DeformableConvolution2DSampler(function_node.FunctionNode):
    """Convolution at offset, bilinearly interpolated sampling points."""

    def __init__(self, stride=1, pad=0):
        self.stride, self.pad, _, _ = _cv.check_conv_params(
            'deformable_convolution_2d_sampler', 2, stride, pad, 1, 1)

    def check_type_forward(self, in_types):
        n_in = in_types.size()
        type_check.expect(3 <= n_in, n_in <= 4)
        type_check.argname(in_types, ('x', 'offset', 'W', 'b'))
        x_type, off_type, w_type = in_types[:3]
        type_check.expect(
            x_type.dtype.kind == 'f',
            off_type.dtype == x_type.dtype,
            w_type.dtype == x_type.dtype,
            x_type.ndim == 4,
            off_type.ndim == 4,
            w_type.ndim == 4,
            w_type.shape[1] == x_type.shape[1],
            off_type.shape[0] == x_type.shape[0],
            off_type.shape[1] == 2 * w_type.shape[2] * w_type.shape[3],
        )
        kh = type_check.eval(w_type.shape[2])
        kw = type_check.eval(w_type.shape[3])
        out_h = conv.get_conv_outsize(type_check.eval(x_type.shape[2]), kh,
                                      self.stride[0], self.pad[0])
        out_w = conv.get_conv_outsize(type_check.eval(x_type.shape[3]), kw,
                                      self.stride[1], self.pad[1])
        type_check.expect(
            off_type.shape[2] == type_check.make_variable(out_h, 'out_h'),
            off_type.shape[3] == type_check.make_variable(out_w, 'out_w'),
        )
        if type_check.eval(n_in) == 4:
            b_type = in_types[3]
            type_check.expect(
                b_type.dtype == x_type.dtype,
                b_type.ndim == 1,
                b_type.shape[0] == w_type.shape[0],
            )

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2))
        x, offset, W = inputs[:3]
        b = inputs[3] if len(inputs) == 4 else None
        _cv.check_positive_output('deformable_convolution_2d_sampler',
                                  x.shape[2:], offset.shape[2:])
        return kernels.lookup('deformable_convolution_2d_sampler', x)(
            x, offset, W, b, self.stride, self.pad),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.sum import sum as sum_
        x, offset, W = self.get_retained_inputs()
        gy, = grad_outputs
        grads = DeformableConvolution2DSamplerGrad(self).apply(
            (x, offset, W, gy))
        ret = []
        for i in indexes:
            if i < 3:
                ret.append(grads[i])
            else:
                ret.append(sum_(gy, axis=(0, 2, 3)))
        return tuple(ret)


class DeformableConvolution2DSamplerGrad(function_node.FunctionNode):
    """The fused gradients ``(gx, goffset, gW)``; not differentiable
    again."""

    def __init__(self, forward_node):
        self.stride = forward_node.stride
        self.pad = forward_node.pad

    def forward(self, inputs):
        x, offset, W, gy = inputs
        return kernels.lookup('deformable_convolution_2d_sampler_grad', x)(
            x, offset, W, gy, self.stride, self.pad)

    def backward(self, indexes, grad_outputs):
        raise RuntimeError(
            'deformable_convolution_2d_sampler does not support double '
            'backprop: its bilinear sampling is differentiable once')


def deformable_convolution_2d_sampler(x, offset, W, b=None, stride=1, pad=0):
    """Two-dimensional deformable convolution with given offsets.

    Each kernel tap ``(u, v)`` (tap index ``t = u * kw + v``) at output
    position ``(i, j)`` reads ``x`` at the fractional point

    .. math::
        (s_Y i - p_H + u + \\Delta^y_{t,i,j},\\;
         s_X j - p_W + v + \\Delta^x_{t,i,j})

    by bilinear interpolation between the four neighbouring pixels, pixels
    outside ``x`` counting as zero; the values read are then combined with
    ``W`` as in :func:`convolution_2d`, and ``b`` is added. The offsets
    ``offset[:, :kh*kw]`` are the shifts :math:`\\Delta^x` along the width
    and ``offset[:, kh*kw:]`` the shifts :math:`\\Delta^y` along the
    height. The output is differentiable once with respect to ``x``,
    ``offset``, ``W`` and ``b`` (the sampling has kinks where a point
    crosses a pixel row or column).

    Args:
        x (Variable or array): input of shape ``(N, C, H, W)``.
        offset (Variable or array): offsets of shape
            ``(N, 2 * kh * kw, out_h, out_w)``, of ``x``'s dtype.
        W (Variable or array): filters of shape ``(O, C, kh, kw)``.
        b (Variable or array): bias of shape ``(O,)``, or None.
        stride (int or pair of ints): ``(s_Y, s_X)``.
        pad (int or pair of ints): ``(p_H, p_W)``.

    Returns:
        Variable of shape ``(N, O, out_h, out_w)`` with
        ``out_h = (H + 2 p_H - kh) // s_Y + 1`` (likewise ``out_w``).
    """
    node = DeformableConvolution2DSampler(stride, pad)
    args = (x, offset, W) if b is None else (x, offset, W, b)
    return node.apply(args)[0]
