"""roi_pooling_2d: max pooling of regions of interest into a fixed grid
(Fast R-CNN)."""
import numbers

import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.pooling import _roi
from chainer_core.utils import type_check


def _round_half_away(xp, v):
    return xp.sign(v) * xp.floor(xp.abs(v) + 0.5)


def _bins(xp, start, end, n_bins, limit):
    """[lo, hi) pixel ranges (R, n_bins) of the bins of regions spanning
    pixels start..end (inclusive), clipped to [0, limit]."""
    size = xp.maximum(end - start + 1, 1)
    step = size / n_bins
    b = xp.arange(n_bins, dtype=numpy.float64)[None, :]
    lo = xp.floor(b * step[:, None]) + start[:, None]
    hi = xp.ceil((b + 1) * step[:, None]) + start[:, None]
    return xp.clip(lo, 0, limit), xp.clip(hi, 0, limit)


def _ranges(rois, outh, outw, spatial_scale, dims):
    """The bins of the regions rois[r] = (batch index, x_min, y_min,
    x_max, y_max) (scaled by spatial_scale and rounded, halves away from
    zero) as the host int64 ranges (R, outh, 2) and (R, outw, 2) of the
    kernel roi_max_bins."""
    # The bounds are a few numbers per region, computed on the host: the
    # kernel's loops over regions read them there.
    r = _roi.host_array(rois).astype(numpy.float64)
    box = _round_half_away(numpy, r[:, 1:] * spatial_scale)
    h_lo, h_hi = _bins(numpy, box[:, 1], box[:, 3], outh, dims[0])
    w_lo, w_hi = _bins(numpy, box[:, 0], box[:, 2], outw, dims[1])
    return _roi.bin_ranges(h_lo, h_hi), _roi.bin_ranges(w_lo, w_hi)


def _targets(xp, argmax, batch, x_shape):
    """Flat indices into x of the maxima (and where there is one)."""
    _, c, h, w = x_shape
    has = argmax >= 0
    base = (batch[:, None] * c + xp.arange(c)[None, :]) * (h * w)
    flat = base[:, :, None, None] + xp.where(has, argmax, 0)
    return flat, has


@kernels.declare('roi_pooling_2d_grad')
def _roi_pooling_2d_grad(xp, gy, argmax, batch, x_shape):
    """gx (x_shape): gy (R, C, outh, outw) added at the maxima argmax of
    the samples batch (R,) of the regions."""
    flat, has = _targets(xp, argmax, batch, x_shape)
    weights = xp.where(has, gy.astype(numpy.float64), 0)
    size = 1
    for s in x_shape:
        size *= s
    gx = xp.bincount(flat.ravel(), weights=weights.ravel(), minlength=size)
    return gx.reshape(x_shape).astype(gy.dtype)


@kernels.declare('roi_pooling_2d_grad_grad')
def _roi_pooling_2d_grad_grad(xp, ggx, argmax, batch):
    """ggy (R, C, outh, outw): ggx read at the maxima argmax (0 for empty
    bins)."""
    flat, has = _targets(xp, argmax, batch, ggx.shape)
    picked = ggx.ravel()[flat]
    return xp.where(has, picked, xp.zeros((), dtype=ggx.dtype))


class ROIPooling2D(function_node.FunctionNode):
    """Max pooling of regions of interest."""

    def __init__(self, outh, outw, spatial_scale):
        for arg, value in (('outh', outh), ('outw', outw)):
            if not isinstance(value, numbers.Integral) or isinstance(
                    value, bool) or value < 1:
                raise ValueError('roi_pooling_2d: {} must be a positive int, '
                                 'got {!r}'.format(arg, value))
        self.outh, self.outw = int(outh), int(outw)
        self.spatial_scale = _roi.check_spatial_scale('roi_pooling_2d',
                                                      spatial_scale)

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('x', 'rois'))
        x_type, roi_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 4,
            roi_type.dtype.kind == 'f',
            roi_type.ndim == 2,
            roi_type.shape[1] == 5,
        )

    def forward(self, inputs):
        x, rois = inputs
        self._batch = rois[:, 0].astype(numpy.int64)
        _roi.check_batch_indices('roi_pooling_2d', self._batch, x.shape[0],
                                 'rois[:, 0]')
        self._x_shape = x.shape
        h_ranges, w_ranges = _ranges(rois, self.outh, self.outw,
                                     self.spatial_scale, x.shape[2:])
        y, self.argmax = kernels.lookup('roi_max_bins', x)(
            x, self._batch, h_ranges, w_ranges, 0)
        return y,

    def backward(self, indexes, grad_outputs):
        return ROIPooling2DGrad(self).apply(grad_outputs) + (None,)


class ROIPooling2DGrad(function_node.FunctionNode):
    """The gradient of RoI pooling: ``gy`` scattered to the maxima."""

    def __init__(self, pool_node):
        self.pool_node = pool_node

    def forward(self, inputs):
        gy, = inputs
        p = self.pool_node
        return kernels.lookup('roi_pooling_2d_grad', gy)(
            gy, p.argmax, p._batch, p._x_shape),

    def backward(self, indexes, grad_outputs):
        return ROIPooling2DGradGrad(self.pool_node).apply(grad_outputs)


class ROIPooling2DGradGrad(function_node.FunctionNode):
    """Reads its input at the maxima of a RoI pooling."""

    def __init__(self, pool_node):
        self.pool_node = pool_node

    def forward(self, inputs):
        ggx, = inputs
        p = self.pool_node
        return kernels.lookup('roi_pooling_2d_grad_grad', ggx)(
            ggx, p.argmax, p._batch),

    def backward(self, indexes, grad_outputs):
        return ROIPooling2DGrad(self.pool_node).apply(grad_outputs)


def roi_pooling_2d(x, rois, outh, outw, spatial_scale):
    """Region of interest max pooling (Fast R-CNN).

    Each region ``rois[r] = (b, x_min, y_min, x_max, y_max)`` of sample
    ``b`` is scaled by ``spatial_scale`` and rounded to pixels (halves away
    from zero); its ``(y_max - y_min + 1) x (x_max - x_min + 1)`` pixels
    (at least 1 x 1) are split into ``outh x outw`` bins, bin ``i`` of an
    axis covering ``[floor(i * step), ceil((i + 1) * step))`` from the
    region's start (``step`` = region size / bins), clipped to the image.
    The output is the maximum over each bin, 0 for a bin that is empty
    after clipping. Gradients flow to ``x`` only, to the maximum of each
    bin.

    Args:
        x (Variable or array): input of shape ``(N, C, H, W)``.
        rois (Variable or array): regions of shape ``(R, 5)``, float, each
            ``(batch_index, x_min, y_min, x_max, y_max)``.
        outh (int): bins per region along the height.
        outw (int): bins per region along the width.
        spatial_scale (float): factor from region to ``x`` coordinates.

    Returns:
        Variable of shape ``(R, C, outh, outw)``.
    """
    return ROIPooling2D(outh, outw, spatial_scale).apply((x, rois))[0]
