"""Checks and array code shared by the region-of-interest poolings."""
import numbers

import numpy

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
    out = xp.matmul(onehot, contributions.reshape(r, -1))
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
