"""ps_roi_max_align_2d: position-sensitive RoIAlign with the maximum."""
from chainer_core import kernels

from chainer_cv.functions import _ps_roi


class PSROIMaxAlign2D(_ps_roi.PSROINode):
    """Position-sensitive RoIAlign, each bin the largest of its samples."""

    _name = 'ps_roi_max_align_2d'

    def _pool(self, x):
        y, self._argmax = kernels.lookup('roi_max_align_2d', x)(
            x, self._rois, self._roi_indices, self.outsize,
            self.spatial_scale, self.sampling_ratio)
        return y

    def _pool_grad(self, gy):
        return kernels.lookup('roi_max_align_2d_grad', gy)(
            gy, self._argmax, self._rois, self._roi_indices, self._x_shape,
            self.spatial_scale, self.sampling_ratio)

    def _pool_reread(self, ggx):
        return kernels.lookup('roi_max_align_2d_grad_grad', ggx)(
            ggx, self._argmax, self._rois, self._roi_indices, self.outsize,
            self.spatial_scale, self.sampling_ratio)


def ps_roi_max_align_2d(x, rois, roi_indices, outsize, spatial_scale,
                        group_size, sampling_ratio=None):
    """Position-sensitive region of interest align with the maximum.

    The regions, bins, cells and channels are those of
    :func:`ps_roi_average_align_2d`; each bin is the largest of its
    bilinearly interpolated sample points (points more than one pixel
    outside the image are skipped, a bin left without points is
    :math:`-\\infty`, and a NaN read wins as in :func:`numpy.max`). The
    gradient flows to the pixels around the chosen point.

    Args:
        x (~chainer.Variable or array): input of shape ``(N, C, H, W)``,
            ``C = out_c * group_size ** 2``.
        rois (~chainer.Variable or array): regions ``(y_min, x_min, y_max,
            x_max)`` of shape ``(R, 4)``.
        roi_indices (~chainer.Variable or array): the sample of each
            region, int, shape ``(R,)``.
        outsize (int, pair or triple): ``(out_h, out_w)`` or
            ``(out_c, out_h, out_w)``.
        spatial_scale (float): factor from region to ``x`` coordinates.
        group_size (int): cells per axis of the position-sensitive grid.
        sampling_ratio (int, pair of ints or None): sample points per bin
            and axis (by default ``ceil(bin size)``).

    Returns:
        ~chainer.Variable: of shape ``(R, out_c, out_h, out_w)``.
    """
    node = PSROIMaxAlign2D(outsize, spatial_scale, group_size,
                           sampling_ratio)
    return node.apply((x, rois, roi_indices))[0]
