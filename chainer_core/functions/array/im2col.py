"""im2col: the patches of a convolution, laid out as channels."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.utils import type_check


def get_conv_outsize(size, k, s, p, cover_all=False, d=1):
    """The output size of a convolution along one axis: ``size`` padded by
    ``p`` on both sides, windows of ``k`` taps ``d`` apart, stride ``s``;
    ``cover_all`` adds a last window reaching past the padding."""
    dk = k + (k - 1) * (d - 1)
    if cover_all:
        return (size + p * 2 - dk + s - 1) // s + 1
    return (size + p * 2 - dk) // s + 1


@kernels.declare('im2col')
def _im2col(xp, x, kh, kw, sy, sx, ph, pw, out_h, out_w, dy, dx):
    """Patches of x (n, c, h, w) as (n, c, kh, kw, out_h, out_w): entry
    [.., i, j, y, z] is x[.., y*sy + i*dy - ph, z*sx + j*dx - pw], zero
    outside x."""
    n, c, h, w = x.shape
    # The bottom and right padding reach as far as the last window does.
    img = xp.pad(x, ((0, 0), (0, 0),
                     (ph, max(sy * (out_h - 1) + dy * (kh - 1) + 1 - h - ph,
                              0)),
                     (pw, max(sx * (out_w - 1) + dx * (kw - 1) + 1 - w - pw,
                              0))),
                 mode='constant')
    col = xp.empty((n, c, kh, kw, out_h, out_w), dtype=x.dtype)
    for i in range(kh):
        top = i * dy
        for j in range(kw):
            left = j * dx
            col[:, :, i, j] = img[:, :, top:top + sy * out_h:sy,
                                  left:left + sx * out_w:sx]
    return col


@kernels.declare('im2col_grad')
def _im2col_grad(xp, col, sy, sx, ph, pw, h, w, dy, dx):
    """The adjoint of im2col: each entry of col (n, c, kh, kw, out_h,
    out_w) added back to the pixel of the (n, c, h, w) image it was taken
    from; padding positions are dropped."""
    n, c, kh, kw, out_h, out_w = col.shape
    img_h = max(sy * (out_h - 1) + dy * (kh - 1) + 1, h + ph)
    img_w = max(sx * (out_w - 1) + dx * (kw - 1) + 1, w + pw)
    img = xp.zeros((n, c, img_h, img_w), dtype=col.dtype)
    for i in range(kh):
        top = i * dy
        for j in range(kw):
            left = j * dx
            img[:, :, top:top + sy * out_h:sy,
                left:left + sx * out_w:sx] += col[:, :, i, j]
    return img[:, :, ph:ph + h, pw:pw + w]


def _pair(value, name):
    if isinstance(value, (tuple, list)):
        if len(value) != 2:
            raise TypeError('im2col: {} must be an int or a pair of ints, got '
                            '{!r}'.format(name, value))
        a, b = value
    else:
        a = b = value
    return (_util.check_int(a, 'im2col', name),
            _util.check_int(b, 'im2col', name))


class Im2Col(function_node.FunctionNode):
    """Extract convolution patches."""

    def __init__(self, ksize, stride, pad, cover_all, dilate):
        self.kh, self.kw = _pair(ksize, 'ksize')
        self.sy, self.sx = _pair(stride, 'stride')
        self.ph, self.pw = _pair(pad, 'pad')
        self.dy, self.dx = _pair(dilate, 'dilate')
        for name, values, low in (('ksize', (self.kh, self.kw), 1),
                                  ('stride', (self.sy, self.sx), 1),
                                  ('pad', (self.ph, self.pw), 0),
                                  ('dilate', (self.dy, self.dx), 1)):
            if min(values) < low:
                raise ValueError('im2col: {} must be at least {}, got {}'
                                 .format(name, low, values))
        self.cover_all = bool(cover_all)

    def _out_size(self, h, w):
        return (get_conv_outsize(h, self.kh, self.sy, self.ph,
                                 self.cover_all, self.dy),
                get_conv_outsize(w, self.kw, self.sx, self.pw,
                                 self.cover_all, self.dx))

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        x_type = in_types[0]
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim == 4)
        _, _, h, w = type_check.eval(x_type.shape)
        out_h, out_w = self._out_size(h, w)
        if out_h <= 0 or out_w <= 0:
            raise type_check.InvalidType(
                'a positive output size for x.shape[2:] = {} with ksize '
                '{}, stride {}, pad {}, dilate {}'.format(
                    (h, w), (self.kh, self.kw), (self.sy, self.sx),
                    (self.ph, self.pw), (self.dy, self.dx)),
                'output size {}'.format((out_h, out_w)))

    def forward(self, inputs):
        x, = inputs
        n, c, h, w = x.shape
        out_h, out_w = self._out_size(h, w)
        col = kernels.lookup('im2col', x)(
            x, self.kh, self.kw, self.sy, self.sx, self.ph, self.pw,
            out_h, out_w, self.dy, self.dx)
        return col.reshape(n, c * self.kh * self.kw, out_h, out_w),

    def backward(self, indexes, grad_outputs):
        _, _, h, w = self.inputs[0].shape
        return Im2ColGrad(self, h, w).apply(grad_outputs)


class Im2ColGrad(function_node.FunctionNode):
    """The adjoint of im2col (linear in the gradient)."""

    def __init__(self, im2col_node, h, w):
        self._im2col = im2col_node
        self.h, self.w = h, w

    def forward(self, inputs):
        gy, = inputs
        f = self._im2col
        n, _, out_h, out_w = gy.shape
        col = gy.reshape(n, gy.shape[1] // (f.kh * f.kw), f.kh, f.kw, out_h,
                         out_w)
        return kernels.lookup('im2col_grad', gy)(
            col, f.sy, f.sx, f.ph, f.pw, self.h, self.w, f.dy, f.dx),

    def backward(self, indexes, grad_outputs):
        f = self._im2col
        return Im2Col((f.kh, f.kw), (f.sy, f.sx), (f.ph, f.pw), f.cover_all,
                      (f.dy, f.dx)).apply(grad_outputs)


def im2col(x, ksize, stride=1, pad=0, cover_all=False, dilate=1):
    """Extract the patches a 2-D convolution sees, as channels.

    ``y[n, (c*kh + i)*kw + j, p, q] = x[n, c, p*sy + i*dy - ph,
    q*sx + j*dx - pw]``, zero where that falls into the padding.

    Args:
        x (Variable or array): float input of shape ``(n, c, h, w)``.
        ksize (int or pair of int): the window size ``(kh, kw)``.
        stride (int or pair of int): the window stride ``(sy, sx)``.
        pad (int or pair of int): zero padding ``(ph, pw)`` on each side.
        cover_all (bool): add windows so that every input pixel is covered
            (the last window may reach past the padding).
        dilate (int or pair of int): the spacing ``(dy, dx)`` of the taps.

    Returns:
        Variable: output of shape ``(n, c*kh*kw, out_h, out_w)`` with
        ``out_h = (h + 2 ph - (kh - 1) dy - 1) // sy + 1`` (plus ``sy - 1``
        in the numerator with ``cover_all``), likewise ``out_w``.
    """
    return Im2Col(ksize, stride, pad, cover_all, dilate).apply((x,))[0]
