"""roi_average_align_2d: RoIAlign (Mask R-CNN) with averaging: each bin of
a region is the mean of bilinearly interpolated sample points."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.pooling import _roi


def _bin_means(xp, rois, outsize, spatial_scale, sampling_ratio, dims,
               dtype):
    """(A, B): per region, the weights (R, outh, H) and (R, outw, W) whose
    outer product averages a bin's sample points (the sampling separates
    into rows and columns)."""
    (wy, _, gy), (wx, _, gx) = _roi.align_axes(
        xp, rois, outsize, spatial_scale, sampling_ratio, dims)
    a = wy.sum(axis=2) / gy[:, None, None]
    b = wx.sum(axis=2) / gx[:, None, None]
    return a.astype(dtype), b.astype(dtype)


@kernels.declare('roi_average_align_2d')
def _roi_average_align_2d(xp, x, rois, roi_indices, outsize, spatial_scale,
                          sampling_ratio):
    """y (R, C, outh, outw): for each region rois[r] = (y_min, x_min,
    y_max, x_max) of sample roi_indices[r] of x (N, C, H, W), the mean of
    each bin's grid of bilinearly interpolated sample points."""
    dtype = _roi.compute_dtype(x.dtype)
    a, b = _bin_means(xp, rois, outsize, spatial_scale, sampling_ratio,
                      x.shape[2:], dtype)
    xs = x[roi_indices].astype(dtype)
    t = xp.matmul(xs, b[:, None].transpose(0, 1, 3, 2))
    return xp.matmul(a[:, None], t).astype(x.dtype)


@kernels.declare('roi_average_align_2d_grad')
def _roi_average_align_2d_grad(xp, gy, rois, roi_indices, x_shape,
                               spatial_scale, sampling_ratio):
    """gx (x_shape): the adjoint of roi_average_align_2d applied to gy
    (R, C, outh, outw)."""
    dtype = _roi.compute_dtype(gy.dtype)
    a, b = _bin_means(xp, rois, gy.shape[2:], spatial_scale, sampling_ratio,
                      x_shape[2:], dtype)
    t = xp.matmul(gy.astype(dtype), b[:, None])
    contrib = xp.matmul(a[:, None].transpose(0, 1, 3, 2), t)
    return _roi.batch_sum(xp, contrib, roi_indices,
                          x_shape[0]).astype(gy.dtype)


class ROIAverageAlign2D(function_node.FunctionNode):
    """RoIAlign with averaging over each bin."""

    def __init__(self, outsize, spatial_scale, sampling_ratio=None):
        self.spec = _roi.AlignSpec('roi_average_align_2d', outsize,
                                   spatial_scale, sampling_ratio)

    def check_type_forward(self, in_types):
        _roi.check_align_types(in_types)

    def forward(self, inputs):
        x, rois, roi_indices = inputs
        _roi.check_batch_indices('roi_average_align_2d', roi_indices,
                                 x.shape[0], 'roi_indices')
        self._x_shape = x.shape
        self._rois, self._roi_indices = rois, roi_indices
        s = self.spec
        return kernels.lookup('roi_average_align_2d', x)(
            x, rois, roi_indices, s.outsize, s.spatial_scale,
            s.sampling_ratio),

    def backward(self, indexes, grad_outputs):
        return ROIAverageAlign2DGrad(self).apply(grad_outputs) + (None, None)


class ROIAverageAlign2DGrad(function_node.FunctionNode):
    """The gradient of :class:`ROIAverageAlign2D` (its adjoint)."""

    def __init__(self, align_node):
        self.align_node = align_node

    def forward(self, inputs):
        gy, = inputs
        a = self.align_node
        return kernels.lookup('roi_average_align_2d_grad', gy)(
            gy, a._rois, a._roi_indices, a._x_shape, a.spec.spatial_scale,
            a.spec.sampling_ratio),

    def backward(self, indexes, grad_outputs):
        a = self.align_node
        s = a.spec
        again = ROIAverageAlign2D(s.outsize, s.spatial_scale,
                                  s.sampling_ratio)
        return again.apply((grad_outputs[0], a._rois, a._roi_indices))[:1]


def roi_average_align_2d(x, rois, roi_indices, outsize, spatial_scale,
                         sampling_ratio=None):
    """Region of interest align with averaging (Mask R-CNN's RoIAlign).

    Each region ``rois[r] = (y_min, x_min, y_max, x_max)`` of sample
    ``roi_indices[r]`` is scaled by ``spatial_scale`` (without rounding;
    each side at least 1 long) and split into ``outsize`` bins. Each bin
    holds a grid of ``sampling_ratio`` points per axis (by default
    ``ceil(bin size)`` per region), evenly spaced at the centres of the
    grid cells; each point is read by bilinear interpolation (points within
    one pixel outside the image read the edge, points farther out count
    as 0), and the bin's output is the mean over its grid.

    Args:
        x (Variable or array): input of shape ``(N, C, H, W)``.
        rois (Variable or array): regions of shape ``(R, 4)``, float.
        roi_indices (Variable or array): sample of each region, ``(R,)``
            integer.
        outsize (int or pair of ints): bins ``(outh, outw)``.
        spatial_scale (float): factor from region to ``x`` coordinates.
        sampling_ratio (int or pair of ints or None): sample points per bin
            and axis.

    Returns:
        Variable of shape ``(R, C, outh, outw)``; gradients flow to ``x``
        only.
    """
    node = ROIAverageAlign2D(outsize, spatial_scale, sampling_ratio)
    return node.apply((x, rois, roi_indices))[0]
