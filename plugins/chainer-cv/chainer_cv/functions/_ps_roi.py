"""What the position-sensitive region-of-interest poolings share.

A position-sensitive pooling (R-FCN, FCIS) reads each output bin
``(i, j)`` of output channel ``k`` from one input channel only,
``(k * group_size + gh(i)) * group_size + gw(j)``, where ``gh`` and ``gw``
map the bins onto a ``group_size x group_size`` grid. Every op here is
therefore an ordinary region-of-interest pooling over all input channels
(chainer_core's kernels, or the kernels below where ChainerCV places its
bins differently) followed by a selection of one channel per bin; the
gradient spreads ``gy`` back into the full layout and runs the ordinary
pooling's gradient. This reuses the backends' RoI kernels as they are;
the price is that the pooling computes ``group_size ** 2`` times the
outputs it keeps.
"""
import numbers

import numpy

import chainer_core
from chainer_core import kernels
from chainer_core import function_node
from chainer_core.utils import roi as _roi
from chainer_core.utils import type_check


def check_outsize(name, outsize):
    """``(out_c, out_h, out_w)`` from an int, a pair ``(out_h, out_w)`` or
    a triple whose ``out_c`` may be None (then taken from ``x``)."""
    if isinstance(outsize, (tuple, list)) and len(outsize) == 3:
        out_c, spatial = outsize[0], tuple(outsize[1:])
        if out_c is not None and not (
                isinstance(out_c, numbers.Integral) and
                not isinstance(out_c, bool) and out_c > 0):
            raise ValueError('{}: outsize[0] (the output channels) must be '
                             'None or a positive int, got {!r}'.format(
                                 name, out_c))
        out_c = None if out_c is None else int(out_c)
    else:
        out_c, spatial = None, outsize
    out_h, out_w = _roi.check_outsize(name, spatial)
    return out_c, out_h, out_w


def check_group_size(name, group_size):
    if not isinstance(group_size, numbers.Integral) or isinstance(
            group_size, bool) or group_size < 1:
        raise ValueError('{}: group_size must be a positive int, got {!r}'
                         .format(name, group_size))
    return int(group_size)


def _bin_to_cell(xp, n_bins, group_size):
    return xp.minimum(xp.arange(n_bins) * group_size // n_bins,
                      group_size - 1)


def _picked(xp, out_c, out_h, out_w, group_size):
    """Index arrays (broadcasting to (out_c, out_h, out_w)) into the full
    layout viewed as (R, out_c, group, group, out_h, out_w)."""
    k = xp.arange(out_c)[:, None, None]
    i = xp.arange(out_h)[None, :, None]
    j = xp.arange(out_w)[None, None, :]
    gh = _bin_to_cell(xp, out_h, group_size)[i]
    gw = _bin_to_cell(xp, out_w, group_size)[j]
    return k, gh, gw, i, j


@kernels.declare('chainer_cv.ps_roi_select')
def _ps_roi_select(xp, full, group_size):
    """y (R, C / group_size ** 2, out_h, out_w): each bin of each output
    channel read from its input channel of full (R, C, out_h, out_w)."""
    n_r, n_c, out_h, out_w = full.shape
    out_c = n_c // (group_size * group_size)
    view = full.reshape(n_r, out_c, group_size, group_size, out_h, out_w)
    return view[(slice(None),) + _picked(xp, out_c, out_h, out_w,
                                         group_size)]


@kernels.declare('chainer_cv.ps_roi_spread')
def _ps_roi_spread(xp, y, group_size):
    """The adjoint of the selection: y (R, K, out_h, out_w) placed in the
    full layout (R, K * group_size ** 2, out_h, out_w), zeros elsewhere."""
    n_r, out_c, out_h, out_w = y.shape
    full = xp.zeros((n_r, out_c, group_size, group_size, out_h, out_w),
                    dtype=y.dtype)
    full[(slice(None),) + _picked(xp, out_c, out_h, out_w, group_size)] = y
    return full.reshape(n_r, out_c * group_size * group_size, out_h, out_w)


def _select(full, group_size):
    return kernels.lookup('chainer_cv.ps_roi_select', full)(full, group_size)


def _spread(y, group_size):
    return kernels.lookup('chainer_cv.ps_roi_spread', y)(y, group_size)


class PSROINode(function_node.FunctionNode):
    """A position-sensitive pooling: the ordinary pooling of all channels
    (``_pool``), then the selection. Subclasses name the public function
    (``_name``) and give ``_pool(x)``, its adjoint or gradient
    ``_pool_grad(gy_full)`` and ``_pool_reread(ggx)``, the gradient of
    ``_pool_grad`` (``_pool`` itself for the linear, averaging ops)."""

    _name = None

    def __init__(self, outsize, spatial_scale, group_size,
                 sampling_ratio=None):
        name = self._name
        self.out_c, out_h, out_w = check_outsize(name, outsize)
        self.outsize = (out_h, out_w)
        self.spatial_scale = _roi.check_spatial_scale(name, spatial_scale)
        self.group_size = check_group_size(name, group_size)
        self.sampling_ratio = _roi.check_sampling_ratio(name,
                                                        sampling_ratio)

    def check_type_forward(self, in_types):
        _roi.check_align_types(in_types)
        type_check.expect(in_types[0].shape[1] > 0)

    def _check_channels(self, n_channels):
        cells = self.group_size * self.group_size
        if self.out_c is None:
            if n_channels % cells:
                raise ValueError(
                    '{}: x has {} channels, not a multiple of group_size ** '
                    '2 = {}'.format(self._name, n_channels, cells))
        elif n_channels != self.out_c * cells:
            raise ValueError(
                '{}: x has {} channels, but outsize[0] * group_size ** 2 = '
                '{}'.format(self._name, n_channels, self.out_c * cells))

    def forward(self, inputs):
        x, rois, roi_indices = inputs
        self._check_channels(x.shape[1])
        _roi.check_batch_indices(self._name, roi_indices, x.shape[0],
                                 'roi_indices')
        self._x_shape = x.shape
        self._rois, self._roi_indices = rois, roi_indices
        self._out_shape = (rois.shape[0], x.shape[1] // (
            self.group_size * self.group_size)) + self.outsize
        if not rois.shape[0]:
            # chainer_core's RoI kernels do not take an empty set of regions.
            return self._zeros_like(x, self._out_shape),
        return _select(self._pool(x), self.group_size),

    @staticmethod
    def _zeros_like(a, shape):
        return chainer_core.backend.get_device_from_array(a).send(
            numpy.zeros(shape, dtype=a.dtype))

    def backward(self, indexes, grad_outputs):
        return PSROIGrad(self).apply(grad_outputs) + (None, None)


class PSROIGrad(function_node.FunctionNode):
    """The gradient of a :class:`PSROINode` with respect to ``x``."""

    def __init__(self, pool_node):
        self.pool_node = pool_node

    def forward(self, inputs):
        gy, = inputs
        p = self.pool_node
        if not gy.shape[0]:
            return p._zeros_like(gy, p._x_shape),
        return p._pool_grad(_spread(gy, p.group_size)),

    def backward(self, indexes, grad_outputs):
        return PSROIGradGrad(self.pool_node).apply(grad_outputs)


class PSROIGradGrad(function_node.FunctionNode):
    """The gradient of :class:`PSROIGrad`: its input pooled again (for
    the maxima, read at the points the forward pass chose)."""

    def __init__(self, pool_node):
        self.pool_node = pool_node

    def forward(self, inputs):
        ggx, = inputs
        p = self.pool_node
        if not p._out_shape[0]:
            return p._zeros_like(ggx, p._out_shape),
        return _select(p._pool_reread(ggx), p.group_size),

    def backward(self, indexes, grad_outputs):
        return PSROIGrad(self.pool_node).apply(grad_outputs)


def unrounded_bins(xp, rois, outsize, spatial_scale, dims):
    """Bin masks (R, out_h, H) and (R, out_w, W) as ChainerCV's
    position-sensitive poolings place them: the region scaled without
    rounding, each side at least 0.1 long, cut into equal bins, bin ``i``
    covering the pixels ``[floor(start + i step), ceil(start + (i + 1)
    step))``, clipped to the image."""
    box = rois.astype(numpy.float64) * spatial_scale
    masks = []
    for axis in range(2):
        start = box[:, axis][:, None]
        step = xp.maximum(box[:, axis + 2][:, None] - start, 0.1) / \
            outsize[axis]
        b = xp.arange(outsize[axis], dtype=numpy.float64)[None, :]
        lo = xp.clip(xp.floor(start + b * step), 0, dims[axis])
        hi = xp.clip(xp.ceil(start + (b + 1) * step), 0, dims[axis])
        masks.append(_roi.bin_masks(xp, lo, hi, dims[axis]))
    return masks
