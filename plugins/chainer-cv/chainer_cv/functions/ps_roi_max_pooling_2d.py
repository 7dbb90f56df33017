"""ps_roi_max_pooling_2d: position-sensitive max pooling of regions of
interest."""
import numpy

from chainer_core import kernels
from chainer_core.utils import roi as _roi

from chainer_cv.functions import _ps_roi


@kernels.declare('chainer_cv.roi_max_pooling_2d_unrounded')
def _roi_max_pooling_2d_unrounded(xp, x, rois, roi_indices, outsize,
                                  spatial_scale):
    """(y, argmax): y (R, C, out_h, out_w) the maximum of x[roi_indices[r]]
    over each bin of _ps_roi.unrounded_bins, -inf for empty bins; argmax
    (int32) the flat index h * W + w of the maximum, -1 for empty bins."""
    in_h, in_w = _ps_roi.unrounded_bins(xp, rois, outsize, spatial_scale,
                                        x.shape[2:])
    return _roi.max_over_bins(xp, x, roi_indices.astype(numpy.int64), in_h,
                              in_w, -numpy.inf)


class PSROIMaxPooling2D(_ps_roi.PSROINode):
    """Position-sensitive max pooling of regions of interest."""

    _name = 'ps_roi_max_pooling_2d'

    def _pool(self, x):
        # The gradient kernels of roi_pooling_2d take the batch index of
        # each region as int64.
        self._batch = self._roi_indices.astype(numpy.int64)
        y, self._argmax = kernels.lookup(
            'chainer_cv.roi_max_pooling_2d_unrounded', x)(
                x, self._rois, self._roi_indices, self.outsize,
                self.spatial_scale)
        return y

    def _pool_grad(self, gy):
        return kernels.lookup('roi_pooling_2d_grad', gy)(
            gy, self._argmax, self._batch, self._x_shape)

    def _pool_reread(self, ggx):
        return kernels.lookup('roi_pooling_2d_grad_grad', ggx)(
            ggx, self._argmax, self._batch)


def ps_roi_max_pooling_2d(x, rois, roi_indices, outsize, spatial_scale,
                          group_size):
    """Position-sensitive region of interest max pooling.

    The regions, bins, cells and channels are those of
    :func:`ps_roi_average_pooling_2d`; each bin is the maximum of its
    input channel over its pixels, :math:`-\\infty` for an empty bin (a
    NaN wins, as in :func:`numpy.max`). The gradient flows to the
    maximum of each bin.

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

    Returns:
        ~chainer.Variable: of shape ``(R, out_c, out_h, out_w)``.
    """
    node = PSROIMaxPooling2D(outsize, spatial_scale, group_size)
    return node.apply((x, rois, roi_indices))[0]
