"""ps_roi_average_pooling_2d: position-sensitive average pooling of regions
of interest (R-FCN)."""
import numpy

from chainer_core import kernels
from chainer_core.utils import roi as _roi

from chainer_cv.functions import _ps_roi


def _bin_means(xp, rois, outsize, spatial_scale, dims, dtype):
    """(A, B) (R, out_h, H), (R, out_w, W): the bin masks over their pixel
    counts; an average over a bin separates into rows and columns, and an
    empty bin gets zero weights."""
    means = []
    for mask in _ps_roi.unrounded_bins(xp, rois, outsize, spatial_scale,
                                       dims):
        count = mask.sum(axis=2, keepdims=True)
        means.append((mask / xp.maximum(count, 1)).astype(dtype))
    return means


@kernels.declare('chainer_cv.roi_average_pooling_2d_unrounded')
def _roi_average_pooling_2d_unrounded(xp, x, rois, roi_indices, outsize,
                                      spatial_scale):
    """y (R, C, out_h, out_w): the mean of x[roi_indices[r]] over each bin
    of _ps_roi.unrounded_bins, 0 for empty bins."""
    dtype = _roi.compute_dtype(x.dtype)
    a, b = _bin_means(xp, rois, outsize, spatial_scale, x.shape[2:], dtype)
    xs = x[roi_indices.astype(numpy.int64)].astype(dtype)
    t = xp.matmul(xs, b[:, None].transpose(0, 1, 3, 2))
    return xp.matmul(a[:, None], t).astype(x.dtype)


@kernels.declare('chainer_cv.roi_average_pooling_2d_unrounded_grad')
def _roi_average_pooling_2d_unrounded_grad(xp, gy, rois, roi_indices,
                                           x_shape, spatial_scale):
    """gx (x_shape): the adjoint of the unrounded average pooling applied
    to gy (R, C, out_h, out_w)."""
    dtype = _roi.compute_dtype(gy.dtype)
    a, b = _bin_means(xp, rois, gy.shape[2:], spatial_scale, x_shape[2:],
                      dtype)
    t = xp.matmul(gy.astype(dtype), b[:, None])
    contrib = xp.matmul(a[:, None].transpose(0, 1, 3, 2), t)
    return _roi.batch_sum(xp, contrib, roi_indices.astype(numpy.int64),
                          x_shape[0]).astype(gy.dtype)


class PSROIAveragePooling2D(_ps_roi.PSROINode):
    """Position-sensitive average pooling of regions of interest."""

    _name = 'ps_roi_average_pooling_2d'

    def _pool(self, x):
        return kernels.lookup('chainer_cv.roi_average_pooling_2d_unrounded',
                              x)(x, self._rois, self._roi_indices,
                                 self.outsize, self.spatial_scale)

    def _pool_grad(self, gy):
        return kernels.lookup(
            'chainer_cv.roi_average_pooling_2d_unrounded_grad', gy)(
                gy, self._rois, self._roi_indices, self._x_shape,
                self.spatial_scale)

    _pool_reread = _pool


def ps_roi_average_pooling_2d(x, rois, roi_indices, outsize, spatial_scale,
                              group_size):
    """Position-sensitive region of interest average pooling (R-FCN).

    Each region ``rois[r] = (y_min, x_min, y_max, x_max)`` of sample
    ``roi_indices[r]`` is scaled by ``spatial_scale`` (without rounding;
    each side at least 0.1 long) and cut into ``out_h x out_w`` equal
    bins; bin ``i`` of an axis covers the pixels from
    ``floor(start + i * step)`` to ``ceil(start + (i + 1) * step)``
    (exclusive), clipped to the image. Bin ``(i, j)`` of output channel
    ``k`` averages input channel ``(k * group_size + gh) * group_size +
    gw`` over its pixels, ``(gh, gw)`` the cell of the
    ``group_size x group_size`` grid the bin falls in (``gh =
    floor(i * group_size / out_h)``); an empty bin is 0.

    Args:
        x (~chainer.Variable or array): input of shape ``(N, C, H, W)``,
            ``C = out_c * group_size ** 2``.
        rois (~chainer.Variable or array): regions of shape ``(R, 4)``.
        roi_indices (~chainer.Variable or array): the sample of each
            region, int, shape ``(R,)``.
        outsize (int, pair or triple): ``(out_h, out_w)`` or
            ``(out_c, out_h, out_w)``; ``out_c`` (None: taken from ``x``)
            is checked against ``C``.
        spatial_scale (float): factor from region to ``x`` coordinates.
        group_size (int): cells per axis of the position-sensitive grid.

    Returns:
        ~chainer.Variable: of shape ``(R, out_c, out_h, out_w)``.
        Gradients flow to ``x`` only.

    See the paper: `R-FCN <https://arxiv.org/abs/1605.06409>`_.
    """
    node = PSROIAveragePooling2D(outsize, spatial_scale, group_size)
    return node.apply((x, rois, roi_indices))[0]
