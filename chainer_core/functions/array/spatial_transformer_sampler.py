"""spatial_transformer_sampler: bilinear sampling of an image at given
points (the sampler of a spatial transformer, Jaderberg et al., 2015).

Each output is a bilinear mix of the four pixels around its point, pixels
outside the image counting as zeros. The gradient reaches the image (the
adjoint of the sampling) and the points (through the mixing weights); as
in Chainer it is not differentiable again.
"""
import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.utils import type_check

# (dy, dx) of the four neighbours of a point.
_CORNERS = ((0, 0), (0, 1), (1, 0), (1, 1))


def _corners(xp, shape, grid):
    """Per neighbour of every point: its flat pixel index (N, P) (0 where
    it lies outside), its bilinear weight (N, P) (0 outside), and the
    weight's derivatives by the pixel coordinates u and v; plus the
    pixel-per-grid-unit scales of u and v."""
    h, w = shape
    n = grid.shape[0]
    su, sv = (w - 1) / 2.0, (h - 1) / 2.0
    u = ((grid[:, 0] + 1) * su).reshape(n, -1)
    v = ((grid[:, 1] + 1) * sv).reshape(n, -1)
    u0, v0 = xp.floor(u), xp.floor(v)
    fu, fv = u - u0, v - v0
    out = []
    for dy, dx in _CORNERS:
        ys, xs = v0 + dy, u0 + dx
        inside = (ys >= 0) & (ys < h) & (xs >= 0) & (xs < w)
        flat = xp.where(inside, ys * w + xs, 0).astype(numpy.int64)
        wu = fu if dx else 1 - fu
        wv = fv if dy else 1 - fv
        sign_u = 1 if dx else -1
        sign_v = 1 if dy else -1
        mask = inside.astype(grid.dtype)
        out.append((flat, wu * wv * mask, sign_u * wv * mask,
                    sign_v * wu * mask))
    return out, su, sv


def _gather(xp, x, flat):
    """x (N, C, H, W) at the flat pixel indices flat (N, P): (N, C, P)."""
    n, c = x.shape[:2]
    index = xp.broadcast_to(flat[:, None, :], (n, c, flat.shape[1]))
    return xp.take_along_axis(x.reshape(n, c, -1), index, axis=2)


def _wide(*arrays):
    dtype = numpy.float32 if arrays[0].dtype == numpy.float16 else \
        arrays[0].dtype
    return [a.astype(dtype, copy=False) for a in arrays]


@kernels.declare('spatial_transformer_sampler')
def _spatial_transformer_sampler(xp, x, grid):
    """y (N, C, oh, ow): x (N, C, H, W) sampled bilinearly at the points
    grid (N, 2, oh, ow) (x and y in [-1, 1] across the image), zeros
    outside (float16 through float32)."""
    xw, gw = _wide(x, grid)
    n, c = x.shape[:2]
    corners, _, _ = _corners(xp, x.shape[2:], gw)
    y = 0
    for flat, weight, _, _ in corners:
        y = y + _gather(xp, xw, flat) * weight[:, None]
    return y.reshape((n, c) + grid.shape[2:]).astype(x.dtype, copy=False)


@kernels.declare('spatial_transformer_sampler_grad')
def _spatial_transformer_sampler_grad(xp, x, grid, gy):
    """(gx, ggrid): the gradients of the sampling by x (gy spread to the
    four neighbours of each point by their weights) and by grid."""
    xw, gw, gyw = _wide(x, grid, gy)
    n, c, h, w = x.shape
    g = gyw.reshape(n, c, -1)
    corners, su, sv = _corners(xp, (h, w), gw)
    gx = xp.zeros((n * c, h * w), dtype=xw.dtype)
    rows = xp.arange(n * c)[:, None]
    gu = gv = 0
    for flat, weight, du, dv in corners:
        index = xp.broadcast_to(flat[:, None, :], g.shape).reshape(n * c, -1)
        xp.add.at(gx, (rows, index), (g * weight[:, None]).reshape(n * c, -1))
        picked = (_gather(xp, xw, flat) * g).sum(axis=1)
        gu = gu + picked * du
        gv = gv + picked * dv
    ggrid = xp.stack([gu * su, gv * sv], axis=1).reshape(grid.shape)
    return (gx.reshape(x.shape).astype(x.dtype, copy=False),
            ggrid.astype(grid.dtype, copy=False))


class SpatialTransformerSampler(function_node.FunctionNode):
    """Bilinear sampling of images at grid points."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('x', 'grid'))
        x_type, grid_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            grid_type.dtype == x_type.dtype,
            x_type.ndim == 4,
            grid_type.ndim == 4,
            grid_type.shape[0] == x_type.shape[0],
            grid_type.shape[1] == 2,
        )

    def forward(self, inputs):
        x, grid = inputs
        self.retain_inputs((0, 1))
        return kernels.lookup('spatial_transformer_sampler', x)(x, grid),

    def backward(self, indexes, grad_outputs):
        x, grid = self.get_retained_inputs()
        gx, ggrid = SpatialTransformerSamplerGrad().apply(
            (x, grid, grad_outputs[0]))
        return tuple((gx, ggrid)[i] for i in indexes)


class SpatialTransformerSamplerGrad(function_node.FunctionNode):
    """The gradients of :class:`SpatialTransformerSampler`."""

    def forward(self, inputs):
        x, grid, gy = inputs
        return kernels.lookup('spatial_transformer_sampler_grad', x)(
            x, grid, gy)

    def backward(self, indexes, grad_outputs):
        raise NotImplementedError(
            'spatial_transformer_sampler is differentiable once only (as in '
            'Chainer)')


def spatial_transformer_sampler(x, grid, **kwargs):
    """Samples images bilinearly at the given points.

    The point :math:`(x^s, y^s)` of ``grid``, in coordinates normalized to
    ``[-1, 1]`` across the image, is the pixel position
    :math:`u = (x^s + 1)(W - 1) / 2`, :math:`v = (y^s + 1)(H - 1) / 2`;
    the output there is

    .. math::
        y_{n,c} = \\sum_{i \\in \\{\\lfloor v \\rfloor, \\lfloor v \\rfloor
        + 1\\}} \\sum_{j \\in \\{\\lfloor u \\rfloor, \\lfloor u \\rfloor +
        1\\}} (1 - |v - i|)(1 - |u - j|)\\, x_{n,c,i,j}

    with pixels outside the image counting as zeros. Gradients flow to
    ``x`` and to ``grid`` (first order only, as in Chainer).

    Args:
        x (Variable or array): images of shape ``(N, C, H, W)``.
        grid (Variable or array): points of shape ``(N, 2, oh, ow)``, of
            the dtype of ``x``; channel 0 is :math:`x^s`, channel 1
            :math:`y^s` (see :func:`spatial_transformer_grid`).

    Returns:
        Variable of shape ``(N, C, oh, ow)``.

    .. admonition:: Example

        >>> x = np.arange(4, dtype='f').reshape(1, 1, 2, 2)
        >>> grid = np.zeros((1, 2, 1, 1), 'f')  # the centre
        >>> F.spatial_transformer_sampler(x, grid).array
        array([[[[1.5]]]], dtype=float32)
    """
    if 'use_cudnn' in kwargs:
        raise ValueError('spatial_transformer_sampler: use_cudnn is not '
                         'supported anymore; use chainer_core.using_config('
                         '"use_cudnn", ...)')
    if kwargs:
        raise TypeError('spatial_transformer_sampler: unexpected keyword '
                        'arguments {}'.format(sorted(kwargs)))
    return SpatialTransformerSampler().apply((x, grid))[0]
