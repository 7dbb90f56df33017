"""roi_max_pooling_2d: max pooling of regions of interest, given as boxes
with a separate array of batch indices, into a fixed grid."""
import numpy

from chainer_core._runtime import kernels
from chainer_core.functions.pooling import _roi
from chainer_core.functions.pooling.roi_pooling_2d import ROIPooling2DGrad


class ROIMaxPooling2D(_roi.PoolingNode):
    """Max pooling of regions of interest (boxes and batch indices)."""

    _name = 'roi_max_pooling_2d'

    def forward(self, inputs):
        x, rois, roi_indices = inputs
        self._check_batch_indices(x, roi_indices)
        # What the gradient nodes of roi_pooling_2d read.
        self._batch = roi_indices.astype(numpy.int64)
        self._x_shape = x.shape
        h_ranges, w_ranges = _roi.pooling_ranges(
            rois, self.outsize, self.spatial_scale, x.shape[2:])
        y, self.argmax = kernels.lookup('roi_max_bins', x)(
            x, self._batch, h_ranges, w_ranges, -numpy.inf)
        return y,

    def backward(self, indexes, grad_outputs):
        return ROIPooling2DGrad(self).apply(grad_outputs) + (None, None)


def roi_max_pooling_2d(x, rois, roi_indices, outsize, spatial_scale):
    """Region of interest max pooling.

    Each region ``rois[r] = (y_min, x_min, y_max, x_max)`` of sample
    ``roi_indices[r]`` is scaled by ``spatial_scale`` and rounded to pixels
    (halves to even); its ``max(y_max - y_min, 1) x max(x_max - x_min, 1)``
    pixels from ``(y_min, x_min)`` are split into ``outh x outw`` bins, bin
    ``i`` of an axis covering ``[floor(i * step), ceil((i + 1) * step))``
    from the region's start (``step`` = region size / bins), clipped to
    the image. The output is the maximum over each bin, and, as in
    Chainer, :math:`-\\infty` for a bin that is empty after clipping.
    Gradients flow to ``x`` only, to the maximum of each bin.

    Args:
        x (Variable or array): input of shape ``(N, C, H, W)``.
        rois (Variable or array): regions of shape ``(R, 4)``, of the
            dtype of ``x``.
        roi_indices (Variable or array): int32 batch index of each region,
            shape ``(R,)``.
        outsize (int or pair of ints): bins per region ``(outh, outw)``.
        spatial_scale (float): factor from region to ``x`` coordinates.

    Returns:
        Variable of shape ``(R, C, outh, outw)``.

    .. admonition:: Example

        >>> x = np.arange(16, dtype='f').reshape(1, 1, 4, 4)
        >>> rois = np.array([[0, 0, 4, 4]], 'f')
        >>> F.roi_max_pooling_2d(x, rois, np.array([0], 'i'), 2, 1.0).array
        array([[[[ 5.,  7.],
                 [13., 15.]]]], dtype=float32)
    """
    node = ROIMaxPooling2D(outsize, spatial_scale)
    return node.apply((x, rois, roi_indices))[0]
