"""roi_average_pooling_2d: average pooling of regions of interest into a
fixed grid.

Each output is a weighted sum of the input, so the op is linear in ``x``:
its gradient is the adjoint (each bin's gradient spread evenly over its
pixels), and the gradient of that is the pooling again.
"""
import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.pooling import _roi


def _weights(xp, rois, outsize, spatial_scale, dims, dtype):
    """Bin masks (R, outh, H), (R, outw, W) as dtype and one over the
    pixel count of each bin (R, outh, outw), 0 for empty bins."""
    in_h, in_w = _roi.pooling_bins(xp, rois, outsize, spatial_scale, dims)
    in_h = in_h.astype(dtype)
    in_w = in_w.astype(dtype)
    count = in_h.sum(axis=2)[:, :, None] * in_w.sum(axis=2)[:, None, :]
    inv = xp.where(count > 0, 1 / xp.maximum(count, 1), 0)
    return in_h, in_w, inv


@kernels.declare('roi_average_pooling_2d')
def _roi_average_pooling_2d(xp, x, rois, roi_indices, outsize,
                            spatial_scale):
    """y (R, C, outh, outw): the mean of x[roi_indices[r]] over each bin of
    the region rois[r] = (y_min, x_min, y_max, x_max) (bins as in
    _roi.pooling_bins), 0 for empty bins (float16 sums in float32)."""
    dtype = _roi.compute_dtype(x.dtype)
    in_h, in_w, inv = _weights(xp, rois, outsize, spatial_scale,
                               x.shape[2:], dtype)
    xs = x[roi_indices.astype(numpy.int64)].astype(dtype, copy=False)
    y = xp.einsum('rih,rjw,rchw->rcij', in_h, in_w, xs) * inv[:, None]
    return y.astype(x.dtype, copy=False)


@kernels.declare('roi_average_pooling_2d_grad')
def _roi_average_pooling_2d_grad(xp, gy, rois, roi_indices, x_shape,
                                 spatial_scale):
    """gx (x_shape): each gy[r, :, i, j] divided by the pixel count of its
    bin and added to every pixel of it in sample roi_indices[r]."""
    dtype = _roi.compute_dtype(gy.dtype)
    in_h, in_w, inv = _weights(xp, rois, gy.shape[2:], spatial_scale,
                               x_shape[2:], dtype)
    g = gy.astype(dtype, copy=False) * inv[:, None]
    per_roi = xp.einsum('rih,rjw,rcij->rchw', in_h, in_w, g)
    gx = _roi.batch_sum(xp, per_roi, roi_indices, x_shape[0])
    return gx.astype(gy.dtype, copy=False)


class ROIAveragePooling2D(_roi.PoolingNode):
    """Average pooling of regions of interest."""

    _name = 'roi_average_pooling_2d'

    def forward(self, inputs):
        x, rois, roi_indices = inputs
        self._check_batch_indices(x, roi_indices)
        self._x_shape = x.shape
        self._rois, self._roi_indices = rois, roi_indices
        return kernels.lookup('roi_average_pooling_2d', x)(
            x, rois, roi_indices, self.outsize, self.spatial_scale),

    def backward(self, indexes, grad_outputs):
        return ROIAveragePooling2DGrad(self).apply(grad_outputs) + (
            None, None)


class ROIAveragePooling2DGrad(function_node.FunctionNode):
    """The gradient of :class:`ROIAveragePooling2D` (its adjoint)."""

    def __init__(self, pool_node):
        self.pool_node = pool_node

    def forward(self, inputs):
        gy, = inputs
        p = self.pool_node
        return kernels.lookup('roi_average_pooling_2d_grad', gy)(
            gy, p._rois, p._roi_indices, p._x_shape, p.spatial_scale),

    def backward(self, indexes, grad_outputs):
        p = self.pool_node
        again = ROIAveragePooling2D(p.outsize, p.spatial_scale)
        return again.apply((grad_outputs[0], p._rois, p._roi_indices))[:1]


def roi_average_pooling_2d(x, rois, roi_indices, outsize, spatial_scale):
    """Region of interest average pooling.

    The regions and their bins are those of :func:`roi_max_pooling_2d`
    (``rois[r] = (y_min, x_min, y_max, x_max)`` of sample
    ``roi_indices[r]``, scaled, rounded and cut into ``outh x outw``
    bins); the output is the mean over each bin, 0 for a bin that is empty
    after clipping. Gradients flow to ``x`` only.

    Args and returns: as :func:`roi_max_pooling_2d`.

    .. admonition:: Example

        >>> x = np.arange(16, dtype='f').reshape(1, 1, 4, 4)
        >>> rois = np.array([[0, 0, 4, 4]], 'f')
        >>> F.roi_average_pooling_2d(x, rois, np.array([0], 'i'), 2,
        ...                          1.0).array
        array([[[[ 2.5,  4.5],
                 [10.5, 12.5]]]], dtype=float32)
    """
    node = ROIAveragePooling2D(outsize, spatial_scale)
    return node.apply((x, rois, roi_indices))[0]
