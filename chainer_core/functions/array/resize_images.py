"""resize_images: bilinear or nearest-neighbour resampling of images."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.utils import type_check


def _sampling(xp, in_size, out_size, mode, align_corners, dtype):
    """Where output pixel i reads along one axis: the lower source index,
    the upper one and the weight of the upper."""
    i = xp.arange(out_size, dtype='d')
    if mode == 'bilinear':
        if align_corners:
            pos = xp.linspace(0, in_size - 1, num=out_size, dtype='d')
        else:
            # Pixel centres mapped onto pixel centres (as OpenCV), clamped
            # at the first pixel.
            pos = xp.maximum((i + 0.5) * (in_size / out_size) - 0.5, 0)
    else:
        if align_corners:
            pos = xp.round(xp.linspace(0, in_size - 1, num=out_size,
                                       dtype='d'))
        else:
            pos = xp.minimum(xp.floor(i * (in_size / out_size)), in_size - 1)
    lower = xp.floor(pos)
    weight = (pos - lower).astype(dtype)
    lower = lower.astype('l')
    upper = xp.minimum(lower + 1, in_size - 1)
    return lower, upper, weight


@kernels.declare('resize_images')
def _resize_images(xp, x, out_h, out_w, mode, align_corners):
    """x of shape (B, C, H, W) resampled to (B, C, out_h, out_w)."""
    _, _, h, w = x.shape
    v0, v1, vw = _sampling(xp, h, out_h, mode, align_corners, x.dtype)
    u0, u1, uw = _sampling(xp, w, out_w, mode, align_corners, x.dtype)
    if mode == 'nearest':
        return x[:, :, v0][..., u0]
    vw = vw[:, None]
    rows = x[:, :, v0] * (1 - vw) + x[:, :, v1] * vw
    return rows[..., u0] * (1 - uw) + rows[..., u1] * uw


@kernels.declare('resize_images_grad')
def _resize_images_grad(xp, gy, h, w, mode, align_corners):
    """The gradient of resize_images for an input of height h and width w:
    every output pixel's gradient spread over its sources by their
    weights."""
    b, c, out_h, out_w = gy.shape
    v0, v1, vw = _sampling(xp, h, out_h, mode, align_corners, gy.dtype)
    u0, u1, uw = _sampling(xp, w, out_w, mode, align_corners, gy.dtype)
    rows = xp.zeros((b, c, out_h, w), dtype=gy.dtype)
    gx = xp.zeros((b, c, h, w), dtype=gy.dtype)
    if mode == 'nearest':
        xp.add.at(rows, (Ellipsis, u0), gy)
        xp.add.at(gx, (slice(None), slice(None), v0), rows)
        return gx
    xp.add.at(rows, (Ellipsis, u0), gy * (1 - uw))
    xp.add.at(rows, (Ellipsis, u1), gy * uw)
    vw = vw[:, None]
    xp.add.at(gx, (slice(None), slice(None), v0), rows * (1 - vw))
    xp.add.at(gx, (slice(None), slice(None), v1), rows * vw)
    return gx


class ResizeImages(function_node.FunctionNode):
    """Resample images to another height and width."""

    def __init__(self, output_shape, mode='bilinear', align_corners=True):
        if not isinstance(output_shape, (tuple, list)) or \
                len(output_shape) != 2 or \
                not all(_util.is_int(s) for s in output_shape):
            raise TypeError('resize_images: output_shape must be a pair of '
                            'ints (h_O, w_O), got {!r}'.format(output_shape))
        if min(output_shape) <= 0:
            raise ValueError('resize_images: output_shape must be positive, '
                             'got {!r}'.format(output_shape))
        if mode not in ('bilinear', 'nearest'):
            raise ValueError('resize_images: mode must be \'bilinear\' or '
                             '\'nearest\', got {!r}'.format(mode))
        if not isinstance(align_corners, bool):
            raise TypeError('resize_images: align_corners must be a bool, '
                            'got {!r}'.format(align_corners))
        self.out_h, self.out_w = (int(s) for s in output_shape)
        self.mode = mode
        self.align_corners = align_corners

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        x_type = in_types[0]
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim == 4,
                          x_type.shape[2] > 0, x_type.shape[3] > 0)

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('resize_images', x)(
            x, self.out_h, self.out_w, self.mode, self.align_corners),

    def backward(self, indexes, grad_outputs):
        _, _, h, w = self.inputs[0].shape
        return ResizeImagesGrad(h, w, self.mode, self.align_corners).apply(
            grad_outputs)


class ResizeImagesGrad(function_node.FunctionNode):
    """The adjoint of resize_images (linear in the output gradient)."""

    def __init__(self, h, w, mode, align_corners):
        self.h, self.w = h, w
        self.mode = mode
        self.align_corners = align_corners

    def forward(self, inputs):
        gy, = inputs
        return kernels.lookup('resize_images_grad', gy)(
            gy, self.h, self.w, self.mode, self.align_corners),

    def backward(self, indexes, grad_outputs):
        out_h, out_w = self.inputs[0].shape[2:]
        return ResizeImages((out_h, out_w), self.mode,
                            self.align_corners).apply(grad_outputs)


def resize_images(x, output_shape, *, mode='bilinear', align_corners=True):
    """Resize images to ``output_shape``.

    Output pixel ``(i, j)`` reads the input at a source position ``(p, q)``
    per axis: with ``align_corners`` the corner pixels map onto each other,
    ``p = i (h - 1) / (h_O - 1)``; without it pixel centres map onto pixel
    centres, ``p = max((i + 1/2) h / h_O - 1/2, 0)`` (as OpenCV).
    ``'bilinear'`` interpolates between the two nearest rows and columns;
    ``'nearest'`` takes ``round(p)`` with ``align_corners`` and
    ``floor(i h / h_O)`` without it.

    Args:
        x (Variable or array): float input of shape ``(n, c_I, h, w)``.
        output_shape (tuple of int): ``(h_O, w_O)`` (height first, unlike
            OpenCV).
        mode (str): ``'bilinear'`` or ``'nearest'``.
        align_corners (bool): see above.

    Returns:
        Variable: output of shape ``(n, c_I, h_O, w_O)``.
    """
    return ResizeImages(output_shape, mode, align_corners).apply((x,))[0]
