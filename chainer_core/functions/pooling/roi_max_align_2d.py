"""roi_max_align_2d: RoIAlign with the maximum: each bin of a region is the
largest of its bilinearly interpolated sample points."""
import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.pooling import _roi


@kernels.declare('roi_max_align_2d')
def _roi_max_align_2d(xp, x, rois, roi_indices, outsize, spatial_scale,
                      sampling_ratio):
    """(y, argmax): y (R, C, outh, outw) is the maximum over each bin's grid
    of bilinearly interpolated sample points of the regions rois[r] =
    (y_min, x_min, y_max, x_max) of samples roi_indices[r] of x
    (N, C, H, W), -inf where no point is inside the image; argmax (int32)
    the point iy * grid_w + ix that held it, -1 for none."""
    dtype = _roi.compute_dtype(x.dtype)
    outh, outw = outsize
    (wy, vy, _), (wx, vx, grid_w) = _roi.align_axes(
        xp, rois, outsize, spatial_scale, sampling_ratio, x.shape[2:])
    n_r, _, g_y, h = wy.shape
    g_x, w = wx.shape[2:]
    # Points separate into rows and columns: read every point of every bin
    # with two batched products.
    a = wy.reshape(n_r, 1, outh * g_y, h).astype(dtype)
    b = wx.reshape(n_r, 1, outw * g_x, w).astype(dtype)
    xs = x[roi_indices].astype(dtype)
    v = xp.matmul(a, xp.matmul(xs, b.transpose(0, 1, 3, 2)))
    # Sizes spelled out: -1 is ambiguous when there is no region.
    v = v.reshape(n_r, x.shape[1], outh, g_y, outw, g_x).transpose(
        0, 1, 2, 4, 3, 5)
    valid = vy[:, :, None, :, None] & vx[:, None, :, None, :]
    v = xp.where(valid[:, None], v, xp.asarray(-numpy.inf, dtype=dtype))
    v = v.reshape(v.shape[:4] + (g_y * g_x,))
    best = _roi.first_argmax(xp, v, 4)
    y = xp.take_along_axis(v, best[..., None], axis=4)[..., 0]
    found = valid.reshape(n_r, 1, outh, outw, g_y * g_x).any(axis=4)
    iy, ix = best // g_x, best % g_x
    argmax = xp.where(found, iy * grid_w[:, None, None, None] + ix, -1)
    return y.astype(x.dtype), argmax.astype(numpy.int32)


def _chosen_weights(xp, argmax, rois, outsize, spatial_scale,
                    sampling_ratio, dims, dtype):
    """The interpolation weights (R, C, outh, outw, H) and (..., W) of the
    points argmax chose, and where there is one."""
    (wy, _, _), (wx, _, grid_w) = _roi.align_axes(
        xp, rois, outsize, spatial_scale, sampling_ratio, dims)
    n_r = wy.shape[0]
    outh, outw = outsize
    found = argmax >= 0
    a = xp.where(found, argmax, 0).astype(numpy.int64)
    gw = grid_w[:, None, None, None]
    r = xp.arange(n_r)[:, None, None, None]
    a_sel = wy[r, xp.arange(outh)[None, None, :, None], a // gw]
    b_sel = wx[r, xp.arange(outw)[None, None, None, :], a % gw]
    return a_sel.astype(dtype), b_sel.astype(dtype), found


@kernels.declare('roi_max_align_2d_grad')
def _roi_max_align_2d_grad(xp, gy, argmax, rois, roi_indices, x_shape,
                           spatial_scale, sampling_ratio):
    """gx (x_shape): gy (R, C, outh, outw) spread by bilinear weights over
    the pixels around the points argmax chose."""
    dtype = _roi.compute_dtype(gy.dtype)
    a, b, found = _chosen_weights(xp, argmax, rois, gy.shape[2:],
                                  spatial_scale, sampling_ratio,
                                  x_shape[2:], dtype)
    n_r, n_c, outh, outw = gy.shape
    g = xp.where(found, gy.astype(dtype), 0)
    rows = (g[..., None] * a).reshape(n_r, n_c, outh * outw, x_shape[2])
    cols = b.reshape(n_r, n_c, outh * outw, x_shape[3])
    contrib = xp.matmul(rows.transpose(0, 1, 3, 2), cols)
    return _roi.batch_sum(xp, contrib, roi_indices,
                          x_shape[0]).astype(gy.dtype)


@kernels.declare('roi_max_align_2d_grad_grad')
def _roi_max_align_2d_grad_grad(xp, ggx, argmax, rois, roi_indices, outsize,
                                spatial_scale, sampling_ratio):
    """ggy (R, C, outh, outw): ggx interpolated at the points argmax chose
    (0 where there is none)."""
    dtype = _roi.compute_dtype(ggx.dtype)
    a, b, found = _chosen_weights(xp, argmax, rois, outsize, spatial_scale,
                                  sampling_ratio, ggx.shape[2:], dtype)
    n_r, n_c, outh, outw = argmax.shape
    h, w = ggx.shape[2:]
    xs = ggx[roi_indices].astype(dtype)
    t = xp.matmul(xs, b.reshape(n_r, n_c, outh * outw, w).transpose(
        0, 1, 3, 2))
    v = (a.reshape(n_r, n_c, outh * outw, h) *
         t.transpose(0, 1, 3, 2)).sum(axis=3)
    v = xp.where(found, v.reshape(argmax.shape), 0)
    return v.astype(ggx.dtype)


class ROIMaxAlign2D(function_node.FunctionNode):
    """RoIAlign with the maximum over each bin."""

    def __init__(self, outsize, spatial_scale, sampling_ratio=None):
        self.spec = _roi.AlignSpec('roi_max_align_2d', outsize,
                                   spatial_scale, sampling_ratio)

    def check_type_forward(self, in_types):
        _roi.check_align_types(in_types)

    def forward(self, inputs):
        x, rois, roi_indices = inputs
        _roi.check_batch_indices('roi_max_align_2d', roi_indices,
                                 x.shape[0], 'roi_indices')
        self._x_shape = x.shape
        self._rois, self._roi_indices = rois, roi_indices
        s = self.spec
        y, self.argmax = kernels.lookup('roi_max_align_2d', x)(
            x, rois, roi_indices, s.outsize, s.spatial_scale,
            s.sampling_ratio)
        return y,

    def backward(self, indexes, grad_outputs):
        return ROIMaxAlign2DGrad(self).apply(grad_outputs) + (None, None)


class ROIMaxAlign2DGrad(function_node.FunctionNode):
    """The gradient of :class:`ROIMaxAlign2D`: ``gy`` spread around the
    chosen points."""

    def __init__(self, align_node):
        self.align_node = align_node

    def forward(self, inputs):
        gy, = inputs
        a = self.align_node
        return kernels.lookup('roi_max_align_2d_grad', gy)(
            gy, a.argmax, a._rois, a._roi_indices, a._x_shape,
            a.spec.spatial_scale, a.spec.sampling_ratio),

    def backward(self, indexes, grad_outputs):
        return ROIMaxAlign2DGradGrad(self.align_node).apply(grad_outputs)


class ROIMaxAlign2DGradGrad(function_node.FunctionNode):
    """Interpolates its input at the points a RoI max align chose."""

    def __init__(self, align_node):
        self.align_node = align_node

    def forward(self, inputs):
        ggx, = inputs
        a = self.align_node
        return kernels.lookup('roi_max_align_2d_grad_grad', ggx)(
            ggx, a.argmax, a._rois, a._roi_indices, a.spec.outsize,
            a.spec.spatial_scale, a.spec.sampling_ratio),

    def backward(self, indexes, grad_outputs):
        return ROIMaxAlign2DGrad(self.align_node).apply(grad_outputs)


def roi_max_align_2d(x, rois, roi_indices, outsize, spatial_scale,
                     sampling_ratio=None):
    """Region of interest align with the maximum.

    As :func:`roi_average_align_2d`, but each bin's output is the largest
    of its bilinearly interpolated sample points (points farther than one
    pixel outside the image are skipped; a bin with no point left is
    :math:`-\\infty`). The gradient flows to the pixels around the chosen
    point of each bin, with its interpolation weights.

    Args:
        x (Variable or array): input of shape ``(N, C, H, W)``.
        rois (Variable or array): regions ``(y_min, x_min, y_max, x_max)``
            of shape ``(R, 4)``, float.
        roi_indices (Variable or array): sample of each region, ``(R,)``
            integer.
        outsize (int or pair of ints): bins ``(outh, outw)``.
        spatial_scale (float): factor from region to ``x`` coordinates.
        sampling_ratio (int or pair of ints or None): sample points per bin
            and axis (by default ``ceil(bin size)`` per region).

    Returns:
        Variable of shape ``(R, C, outh, outw)``.
    """
    node = ROIMaxAlign2D(outsize, spatial_scale, sampling_ratio)
    return node.apply((x, rois, roi_indices))[0]
