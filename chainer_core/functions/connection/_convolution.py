"""Array code and argument checks shared by the convolutions."""
import numpy

from chainer_core.utils import conv_nd
from chainer_core.utils import type_check


def _prod(values):
    out = 1
    for v in values:
        out *= v
    return out


def matmul_acc(xp, a, b):
    """``a @ b`` (batched, broadcasting); float16 operands are multiplied in
    float32 so that long sums do not lose precision."""
    if a.dtype == numpy.float16:
        return matmul_acc(xp, a.astype(numpy.float32),
                          b.astype(numpy.float32)).astype(numpy.float16)
    if a.ndim > 2 and b.ndim > 2 and _prod(a.shape[:-2]) == 1 and \
            _prod(b.shape[:-2]) == 1:
        # A stack of one: NumPy's stacked matmul can take a much slower
        # threaded path than a plain matrix product.
        lead = (1,) * max(a.ndim - 2, b.ndim - 2)
        y = xp.matmul(a.reshape(a.shape[-2:]), b.reshape(b.shape[-2:]))
        return y.reshape(lead + y.shape)
    return xp.matmul(a, b)


def conv_forward(xp, x, W, b, stride, pad, dilate, groups, cover_all):
    """Convolution of x (N, C, *in) with W (O, C / groups, *k), plus b."""
    n = x.ndim - 2
    ksize = W.shape[2:]
    col = conv_nd.im2col_nd(x, ksize, stride, pad, cover_all, dilate, xp=xp)
    N, C = x.shape[:2]
    n_out = W.shape[0]
    out_dims = col.shape[2 + n:]
    # (g, O/g, C/g*K) @ (N, g, C/g*K, P) -> (N, g, O/g, P), already in the
    # (N, O, *out) layout.
    col = col.reshape(N, groups, C // groups * _prod(ksize), _prod(out_dims))
    # Explicit sizes: a -1 cannot be inferred when an axis is 0 (no batch,
    # no output channel).
    w = W.reshape(groups, n_out // groups, C // groups * _prod(ksize))
    y = matmul_acc(xp, w, col).reshape((N, n_out) + out_dims)
    if b is not None:
        y += b.reshape((1, n_out) + (1,) * n)
    return y


def conv_grad_w(xp, x, gy, ksize, stride, pad, dilate, groups):
    """The filter gradient of a convolution of x whose output gradient is
    gy: (O, C / groups, *ksize)."""
    out_dims = gy.shape[2:]
    col = conv_nd.im2col_nd(x, ksize, stride, pad, dilate=dilate,
                            out_dims=out_dims, xp=xp)
    N, C = x.shape[:2]
    n_out = gy.shape[1]
    P = _prod(out_dims)
    # Batch and output positions together form the summed axis of one
    # batched product over the groups.
    col = col.reshape(N, groups, C // groups * _prod(ksize), P)
    col = col.transpose(1, 0, 3, 2).reshape(
        groups, N * P, C // groups * _prod(ksize))
    g = gy.reshape(N, groups, n_out // groups, P)
    g = g.transpose(1, 2, 0, 3).reshape(groups, n_out // groups, N * P)
    gW = matmul_acc(xp, g, col)
    return gW.reshape((n_out, C // groups) + tuple(ksize))


def deconv_forward(xp, x, W, b, stride, pad, dilate, groups, outsize):
    """Transposed convolution of x (N, Cin, *in) with W
    (Cin, Cout / groups, *k) to the spatial size outsize, plus b."""
    n = x.ndim - 2
    N, C_in = x.shape[:2]
    c_out_g = W.shape[1]
    ksize = W.shape[2:]
    in_dims = x.shape[2:]
    w = W.reshape(groups, C_in // groups,
                  c_out_g * _prod(ksize)).transpose(0, 2, 1)
    xm = x.reshape(N, groups, C_in // groups, _prod(in_dims))
    col = matmul_acc(xp, w, xm)
    col = col.reshape((N, groups * c_out_g) + tuple(ksize) + tuple(in_dims))
    y = conv_nd.col2im_nd(col, stride, pad, outsize, dilate, xp=xp)
    if b is not None:
        y += b.reshape((1, -1) + (1,) * n)
    return y


def check_conv_params(name, ndim, stride, pad, dilate, groups):
    """Validate the Python parameters shared by the convolutions."""
    out = []
    for arg, value, low in (('stride', stride, 1), ('pad', pad, 0),
                            ('dilate', dilate, 1)):
        try:
            t = conv_nd.as_tuple(value, ndim, arg)
        except (TypeError, ValueError) as e:
            raise type(e)('{}: {}'.format(name, e)) from None
        if any(v < low for v in t):
            raise ValueError('{}: {} must be >= {}, got {!r}'.format(
                name, arg, low, value))
        out.append(t)
    if not isinstance(groups, (int, numpy.integer)) or \
            isinstance(groups, bool) or groups < 1:
        raise ValueError('{}: groups must be an int >= 1, got {!r}'.format(
            name, groups))
    return out[0], out[1], out[2], int(groups)


def check_positive_output(name, in_dims, out_dims):
    if any(o <= 0 for o in out_dims):
        raise ValueError(
            '{}: the output would have the spatial shape {}: x (spatial '
            'shape {}) is too small for the kernel of W with this stride, '
            'pad and dilate'.format(name, tuple(out_dims), tuple(in_dims)))


def check_conv_types(in_types, ndim, groups, w_in_axis):
    """Type checks shared by convolutions: x (N, C, *in), W with C / groups
    input channels on axis ``w_in_axis`` (1 for convolution, 0 for the
    transposed one), b of W's output channels; W and b may have float
    dtypes other than x's."""
    n_in = in_types.size()
    type_check.expect(2 <= n_in, n_in <= 3)
    type_check.argname(in_types, ('x', 'W', 'b'))
    x_type, w_type = in_types[:2]
    groups_v = type_check.make_variable(groups, 'groups')
    type_check.expect(
        x_type.dtype.kind == 'f',
        w_type.dtype.kind == 'f',
        x_type.ndim == ndim + 2,
        w_type.ndim == ndim + 2,
    )
    if w_in_axis == 1:
        type_check.expect(
            x_type.shape[1] == w_type.shape[1] * groups_v,
            w_type.shape[0] % groups_v == 0,
        )
    else:
        type_check.expect(
            x_type.shape[1] == w_type.shape[0],
            w_type.shape[0] % groups_v == 0,
        )
    if type_check.eval(n_in) == 3:
        b_type = in_types[2]
        out_c = w_type.shape[0] if w_in_axis == 1 else \
            w_type.shape[1] * groups_v
        type_check.expect(
            b_type.dtype.kind == 'f',
            b_type.ndim == 1,
            b_type.shape[0] == out_c,
        )


def check_spatial_axes(name, x, ndim):
    """For the fixed-rank forms (convolution_1d, ...): x must have ndim
    spatial axes after (N, C)."""
    if len(x.shape) != ndim + 2:
        raise ValueError(
            '{}: x must have {} axes (N, C and {} spatial), got shape '
            '{}'.format(name, ndim + 2, ndim, tuple(x.shape)))


def check_outsize(name, outsize, ndim):
    if outsize is None:
        return None
    try:
        out = conv_nd.as_tuple(outsize, ndim, 'outsize')
    except (TypeError, ValueError) as e:
        raise type(e)('{}: {}'.format(name, e)) from None
    if any(o < 1 for o in out):
        raise ValueError('{}: outsize must be positive, got {!r}'.format(
            name, outsize))
    return out
