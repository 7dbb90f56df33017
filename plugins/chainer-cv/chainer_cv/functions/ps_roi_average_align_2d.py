"""ps_roi_average_align_2d: position-sensitive RoIAlign with averaging."""
from chainer_core import kernels

from chainer_cv.functions import _ps_roi


class PSROIAverageAlign2D(_ps_roi.PSROINode):
    """Position-sensitive RoIAlign, each bin the mean of its samples."""

    _name = 'ps_roi_average_align_2d'

    def _pool(self, x):
        return kernels.lookup('roi_average_align_2d', x)(
            x, self._rois, self._roi_indices, self.outsize,
            self.spatial_scale, self.sampling_ratio)

    def _pool_grad(self, gy):
        return kernels.lookup('roi_average_align_2d_grad', gy)(
            gy, self._rois, self._roi_indices, self._x_shape,
            self.spatial_scale, self.sampling_ratio)

    _pool_reread = _pool


def ps_roi_average_align_2d(x, rois, roi_indices, outsize, spatial_scale,
                            group_size, sampling_ratio=None):
    """Position-sensitive region of interest align with averaging (FCIS).

    Each region ``rois[r] = (y_min, x_min, y_max, x_max)`` of sample
    ``roi_indices[r]`` is scaled by ``spatial_scale`` (without rounding;
    each side at least 1 long) and cut into ``out_h x out_w`` bins. The
    bins map onto a ``group_size x group_size`` grid of cells (bin ``i``
    of an axis into cell ``floor(i * group_size / out_h)``), and bin
    ``(i, j)`` of output channel ``k`` reads input channel
    ``(k * group_size + gh) * group_size + gw`` only, ``(gh, gw)`` being
    its cell. As in :func:`chainer.functions.roi_average_align_2d`, a bin
    is the mean of a grid of bilinearly interpolated points
    (``sampling_ratio`` per axis, by default ``ceil(bin size)``); points
    more than one pixel outside the image count as 0.

    Args:
        x (~chainer.Variable or array): input of shape ``(N, C, H, W)``,
            ``C = out_c * group_size ** 2``.
        rois (~chainer.Variable or array): regions of shape ``(R, 4)``.
        roi_indices (~chainer.Variable or array): the sample of each
            region, int, shape ``(R,)``.
        outsize (int, pair or triple): ``(out_h, out_w)`` or
            ``(out_c, out_h, out_w)``; ``out_c`` (None: taken from ``x``)
            is checked against ``C``. An int ``o`` means ``(o, o)``.
        spatial_scale (float): factor from region to ``x`` coordinates.
        group_size (int): cells per axis of the position-sensitive grid.
        sampling_ratio (int, pair of ints or None): sample points per bin
            and axis.

    Returns:
        ~chainer.Variable: of shape ``(R, out_c, out_h, out_w)``.
        Gradients flow to ``x`` only.

    Raises:
        ValueError: a bad ``outsize``, ``spatial_scale``, ``group_size``
            or ``sampling_ratio``, a channel count that ``group_size`` does
            not divide, or a region index outside the batch.

    See the paper proposing the position-sensitive pooling: `R-FCN
    <https://arxiv.org/abs/1605.06409>`_, and the one aligning it: `FCIS
    <https://arxiv.org/abs/1611.07709>`_.
    """
    node = PSROIAverageAlign2D(outsize, spatial_scale, group_size,
                               sampling_ratio)
    return node.apply((x, rois, roi_indices))[0]
