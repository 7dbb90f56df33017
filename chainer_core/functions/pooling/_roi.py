"""Checks and array code shared by the region-of-interest poolings."""
import numbers

import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.utils import type_check


def check_outsize(name, outsize):
    """``outsize`` (an int or a pair) as a pair of positive ints."""
    if isinstance(outsize, (tuple, list)):
        pair = outsize
    else:
        pair = (outsize, outsize)
    if len(pair) != 2 or not all(
            isinstance(v, numbers.Integral) and not isinstance(v, bool) and
            v > 0 for v in pair):
        raise ValueError('{}: outsize must be a positive int or a pair of '
                         'them, got {!r}'.format(name, outsize))
    return int(pair[0]), int(pair[1])


def check_spatial_scale(name, spatial_scale):
    if not isinstance(spatial_scale, numbers.Real) or isinstance(
            spatial_scale, bool) or not spatial_scale > 0:
        raise ValueError('{}: spatial_scale must be a positive number, got '
                         '{!r}'.format(name, spatial_scale))
    return float(spatial_scale)


def check_sampling_ratio(name, sampling_ratio):
    pair = sampling_ratio if isinstance(sampling_ratio, (tuple, list)) \
        else (sampling_ratio, sampling_ratio)
    if len(pair) != 2 or not all(
            v is None or (isinstance(v, numbers.Integral) and
                          not isinstance(v, bool) and v >= 1) for v in pair):
        raise ValueError('{}: sampling_ratio must be None, an int >= 1 or a '
                         'pair of them, got {!r}'.format(name,
                                                         sampling_ratio))
    return tuple(None if v is None else int(v) for v in pair)


def check_batch_indices(name, indices, batch, arg):
    if indices.size and (int(indices.min()) < 0 or
                         int(indices.max()) >= batch):
        raise ValueError('{}: {} holds a batch index outside [0, {}): '
                         'values in [{}, {}]'.format(
                             name, arg, batch, int(indices.min()),
                             int(indices.max())))


def batch_sum(xp, contributions, indices, batch):
    """Per-region arrays (R, ...) summed into the samples (batch, ...) their
    batch indices name."""
    onehot = (xp.arange(batch)[:, None] == indices[None, :]).astype(
        contributions.dtype)
    r = contributions.shape[0]
    # The size is spelled out: -1 is ambiguous when there is no region.
    size = int(numpy.prod(contributions.shape[1:]))
    out = xp.matmul(onehot, contributions.reshape(r, size))
    return out.reshape((batch,) + contributions.shape[1:])


def compute_dtype(dtype):
    """Regions are interpolated in float32 at least."""
    return numpy.float32 if dtype == numpy.float16 else dtype


def align_samples(xp, start, length, n_bins, ratio, limit):
    """Bilinear sampling of one axis for RoIAlign.

    Each of the ``n_bins`` bins of a region (``start`` and ``length``, (R,)
    float64) holds ``grid`` sample points, ``grid`` being ``ratio`` or, when
    it is None, ``ceil(length / n_bins)`` per region. Returns
    ``(weights, valid, grid)``: ``weights`` (R, n_bins, G, limit) reads
    each sample point by linear interpolation of the pixels (points in
    ``[-1, 0)`` and ``(limit - 1, limit]`` read the edge pixel),
    ``valid`` (R, n_bins, G) is false for points beyond ``[-1, limit]`` and
    for the unused sample slots of regions with a grid smaller than ``G``,
    and ``grid`` (R,) holds the sample count per bin.
    """
    bin_size = length / n_bins
    if ratio is None:
        grid = xp.ceil(bin_size).astype(numpy.int64)
    else:
        grid = xp.full(start.shape, ratio, dtype=numpy.int64)
    g_max = int(grid.max()) if grid.size else 1
    b = xp.arange(n_bins, dtype=numpy.float64)[None, :, None]
    i = xp.arange(g_max, dtype=numpy.float64)[None, None, :]
    gr = grid.astype(numpy.float64)[:, None, None]
    pos = start[:, None, None] + b * bin_size[:, None, None] + \
        (i + 0.5) * bin_size[:, None, None] / gr
    valid = (pos >= -1) & (pos <= limit) & (i < gr)
    p = xp.clip(pos, 0, limit - 1)
    low = xp.floor(p)
    frac = p - low
    pixels = xp.arange(limit, dtype=numpy.float64)
    weights = (1 - frac)[..., None] * (pixels == low[..., None]) + \
        frac[..., None] * (pixels == low[..., None] + 1)
    weights = weights * valid[..., None]
    return weights, valid, grid


def align_axes(xp, rois, outsize, spatial_scale, sampling_ratio, dims):
    """:func:`align_samples` of both axes of regions
    ``rois[r] = (y_min, x_min, y_max, x_max)`` (scaled by spatial_scale,
    each side at least 1 long): ``((wy, vy, gy), (wx, vx, gx))``."""
    r = rois.astype(numpy.float64) * spatial_scale
    out = []
    for axis in range(2):
        start = r[:, axis]
        length = xp.maximum(r[:, axis + 2] - start, 1.0)
        out.append(align_samples(xp, start, length, outsize[axis],
                                 sampling_ratio[axis], dims[axis]))
    return out


class AlignSpec:
    """The parameters of a RoIAlign op, checked, for its kernels."""

    def __init__(self, name, outsize, spatial_scale, sampling_ratio):
        self.outsize = check_outsize(name, outsize)
        self.spatial_scale = check_spatial_scale(name, spatial_scale)
        self.sampling_ratio = check_sampling_ratio(name, sampling_ratio)


def check_align_types(in_types):
    type_check.expect(in_types.size() == 3)
    type_check.argname(in_types, ('x', 'rois', 'roi_indices'))
    x_type, roi_type, index_type = in_types
    type_check.expect(
        x_type.dtype.kind == 'f',
        x_type.ndim == 4,
        roi_type.dtype.kind == 'f',
        roi_type.ndim == 2,
        roi_type.shape[1] == 4,
        index_type.dtype.kind == 'i',
        index_type.ndim == 1,
        roi_type.shape[0] == index_type.shape[0],
    )


class PoolingNode(function_node.FunctionNode):
    """What roi_max_pooling_2d and roi_average_pooling_2d (the op named
    ``_name``) share: their checked parameters, the input types and the
    check of the batch indices."""

    _name = None

    def __init__(self, outsize, spatial_scale):
        self.outsize = check_outsize(self._name, outsize)
        self.spatial_scale = check_spatial_scale(self._name, spatial_scale)

    def check_type_forward(self, in_types):
        check_align_types(in_types)

    def _check_batch_indices(self, x, roi_indices):
        check_batch_indices(self._name, roi_indices, x.shape[0],
                            'roi_indices')


def bin_masks(xp, lo, hi, size):
    """(R, n_bins, size) masks of the pixels of an axis in the bins
    [lo, hi) (R, n_bins)."""
    pixels = xp.arange(size, dtype=numpy.float64)
    return (pixels >= lo[..., None]) & (pixels < hi[..., None])


def _pooling_bounds(xp, rois, outsize, spatial_scale, dims):
    """The float bounds ``[(lo, hi), (lo, hi)]`` (R, n_bins) of the bins of
    :func:`pooling_bins` along the height and the width."""
    box = xp.round(rois.astype(numpy.float64) * spatial_scale)
    bounds = []
    for axis, n_bins, limit in ((0, outsize[0], dims[0]),
                                (1, outsize[1], dims[1])):
        start, end = box[:, axis], box[:, axis + 2]
        step = xp.maximum(end - start, 1) / n_bins
        b = xp.arange(n_bins, dtype=numpy.float64)[None, :]
        lo = xp.clip(xp.floor(b * step[:, None]) + start[:, None], 0, limit)
        hi = xp.clip(xp.ceil((b + 1) * step[:, None]) + start[:, None], 0,
                     limit)
        bounds.append((lo, hi))
    return bounds


def pooling_bins(xp, rois, outsize, spatial_scale, dims):
    """The bin masks (R, outh, H) and (R, outw, W) of the regions rois[r] =
    (y_min, x_min, y_max, x_max) of roi_max_pooling_2d and
    roi_average_pooling_2d: scaled and rounded (halves to even), the
    region of max(end - start, 1) pixels from start cut into bins
    [floor(i step), ceil((i + 1) step)) with step = region / bins,
    clipped to the image."""
    return [bin_masks(xp, lo, hi, limit) for (lo, hi), limit in
            zip(_pooling_bounds(xp, rois, outsize, spatial_scale, dims),
                dims)]


def pooling_ranges(rois, outsize, spatial_scale, dims):
    """The bins of :func:`pooling_bins` as host int64 ranges (R, outh, 2)
    and (R, outw, 2), for the kernel roi_max_bins."""
    rois = host_array(rois)
    return [bin_ranges(lo, hi) for lo, hi in
            _pooling_bounds(numpy, rois, outsize, spatial_scale, dims)]


def bin_ranges(lo, hi):
    """Host float bounds lo, hi (R, n_bins), clipped to the image, as int64
    ranges (R, n_bins, 2) for roi_max_bins: a bin holding no pixel, NaN
    bounds included, becomes [0, 0)."""
    full = lo < hi
    lo = numpy.where(full, lo, 0).astype(numpy.int64)
    hi = numpy.where(full, hi, 0).astype(numpy.int64)
    return numpy.stack([lo, hi], axis=2)


def first_argmax(xp, a, axis):
    """``a.argmax(axis)`` by NumPy's rule on every array module: the first
    maximum, a NaN counting as larger than every number. CuPy returns any
    of several NaNs; among equal numbers, and among the True of a boolean
    array, every module returns the first."""
    if type(a).argmax is numpy.ndarray.argmax:
        # NumPy's own (also on its subclasses that keep it): one pass.
        return a.argmax(axis=axis)
    nan = xp.isnan(a)
    return xp.where(nan.any(axis=axis), nan.argmax(axis=axis),
                    a.argmax(axis=axis))


def host_array(a):
    """The values of a (small) array of any device, on the host."""
    from chainer_core._runtime.host import host
    return numpy.asarray(host.device_from_array(a).to_host(a))


def _mask_ranges(mask):
    """The [lo, hi) ranges (R, n_bins, 2), as host int64, of contiguous bin
    masks (R, n_bins, size); hi == lo for an empty bin."""
    m = host_array(mask)
    lo = m.argmax(axis=2)
    return numpy.stack([lo, lo + m.sum(axis=2)], axis=2).astype(numpy.int64)


# The most values one gather of roi_max_bins' reference holds.
_GATHER_LIMIT = 1 << 22


def _bin_taps(ranges, full):
    """(n_bins, taps) host indices of the pixels of each bin [lo, hi) of
    ``ranges`` (n_bins, 2), the last one repeated up to the widest bin's
    width; 0 for an empty bin (not ``full``), whose result is replaced.
    A repeat is met after the pixel it repeats, so the first maximum (and
    the first NaN) over a bin's taps is that over the bin."""
    lo = numpy.where(full, ranges[:, 0], 0)
    width = numpy.where(full, ranges[:, 1] - ranges[:, 0], 1)
    taps = numpy.arange(width.max())
    return lo[:, None] + numpy.minimum(taps[None, :], width[:, None] - 1)


@kernels.declare('roi_max_bins')
def _roi_max_bins(xp, x, batch, h_ranges, w_ranges, empty_value):
    """(y, argmax): y (R, C, outh, outw) the maximum of x[batch[r]] (x
    (N, C, H, W), batch (R,)) over each bin: the rows h_ranges[r, i] =
    [lo, hi) (R, outh, 2) by the columns w_ranges[r, j] (R, outw, 2),
    inside the image, hi == lo for an empty bin; empty_value for empty
    bins. batch and the ranges are int64, on x's device or the host.
    argmax (int32): the flat index h * W + w of the first maximum in its
    sample (a NaN above every number, as NumPy's argmax), -1 for empty
    bins."""
    n_r, n_c = h_ranges.shape[0], x.shape[1]
    outh, outw = h_ranges.shape[1], w_ranges.shape[1]
    w = x.shape[3]
    y = xp.full((n_r, n_c, outh, outw), empty_value, dtype=x.dtype)
    argmax = xp.full((n_r, n_c, outh, outw), -1, dtype=numpy.int32)
    h_ranges = host_array(h_ranges)
    w_ranges = host_array(w_ranges)
    samples = host_array(batch)
    # One region at a time, over the rows its bins cover: every region at
    # once would hold R x C x H x outw x W values. A bin is a rectangle:
    # its maximum is over the columns of each row, then over the rows, each
    # a gather of every bin's taps (_bin_taps) and one first_argmax; the
    # channels go in chunks that keep a gather near _GATHER_LIMIT values.
    for r in range(n_r):
        rows, cols = h_ranges[r], w_ranges[r]
        full_h = rows[:, 1] > rows[:, 0]
        full_w = cols[:, 1] > cols[:, 0]
        if not (full_h.any() and full_w.any()):
            continue
        h0, h1 = rows[full_h, 0].min(), rows[full_h, 1].max()
        col_taps = _bin_taps(cols, full_w)
        row_taps = _bin_taps(rows - h0, full_h)
        col_taps_x = xp.asarray(col_taps)
        row_taps_x = xp.asarray(row_taps)
        per_channel = (h1 - h0) * outw * col_taps.shape[1]
        step = max(1, _GATHER_LIMIT // per_channel)
        for c0 in range(0, n_c, step):
            xr = x[samples[r], c0:c0 + step, h0:h1]
            # (c, rows, outw, taps): the best column of each bin per row.
            seg = xr[:, :, col_taps_x]
            a = first_argmax(xp, seg, 3)
            col_val = xp.take_along_axis(seg, a[..., None], 3)[..., 0]
            col_arg = col_taps_x[xp.arange(outw), a]
            # (c, outh, taps, outw): the best of those rows per bin.
            seg = col_val[:, row_taps_x]
            b = first_argmax(xp, seg, 2)
            y[r, c0:c0 + step] = xp.take_along_axis(
                seg, b[:, :, None], 2)[:, :, 0]
            row = row_taps_x[xp.arange(outh)[:, None], b]
            col = xp.take_along_axis(col_arg, row, 1)
            argmax[r, c0:c0 + step] = (row + h0) * w + col
    empty = (h_ranges[:, :, 1] <= h_ranges[:, :, 0])[:, :, None] | \
        (w_ranges[:, :, 1] <= w_ranges[:, :, 0])[:, None, :]
    empty = xp.asarray(empty[:, None])
    y = xp.where(empty, xp.asarray(empty_value, dtype=x.dtype), y)
    argmax = xp.where(empty, -1, argmax)
    return y, argmax.astype(numpy.int32)


def max_over_bins(xp, x, batch, in_h, in_w, empty_value):
    """(y, argmax): y (R, C, outh, outw) the maximum of x[batch[r]] over
    each bin (the rectangle of the masks in_h (R, outh, H) and in_w
    (R, outw, W)), empty_value for empty bins; argmax (int32) the flat
    index h * W + w of the maximum in its sample, -1 for empty bins. The
    reference of the kernel roi_max_bins, on masks."""
    return _roi_max_bins(xp, x, batch, _mask_ranges(in_h),
                         _mask_ranges(in_w), empty_value)
