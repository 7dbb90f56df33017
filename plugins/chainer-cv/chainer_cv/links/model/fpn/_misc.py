"""Pieces the FPN heads and losses share: RoI pooling over the pyramid,
the level a RoI is pooled from, clipped decoding and the smooth L1
loss."""
import numpy

import chainer_core.functions as F

from chainer_cv.links.model.faster_rcnn.utils._host import like
from chainer_cv.links.model.faster_rcnn.utils._host import to_host
from chainer_cv.links.model.faster_rcnn.utils.loc2bbox import loc2bbox

# The largest log-scale applied to a box when decoding: a wild prediction
# grows a box at most 1000 / 16 times instead of overflowing.
exp_clip = numpy.log(1000 / 16)


def decode_clipped(src_bbox, loc):
    """:func:`loc2bbox` with the log-scales capped at :data:`exp_clip`
    (host arrays, ``loc`` of shape :math:`(R, 4 K)`)."""
    loc = loc.copy()
    loc[:, 2::4] = numpy.minimum(loc[:, 2::4], exp_clip)
    loc[:, 3::4] = numpy.minimum(loc[:, 3::4], exp_clip)
    return loc2bbox(src_bbox, loc)


def roi_levels(rois, n_level, canonical_scale=224, canonical_level=2):
    """The pyramid level of each RoI (host ``int32``): a box of side
    ``canonical_scale`` goes to ``canonical_level``, each doubling of the
    side one level up; the coarsest level is left to the RPN."""
    rois = to_host(rois)
    size = numpy.sqrt(numpy.prod(rois[:, 2:] - rois[:, :2], axis=1))
    level = numpy.floor(numpy.log2(size / canonical_scale + 1e-6))
    return numpy.clip(level.astype(numpy.int32) + canonical_level, 0,
                      n_level - 2)


def distribute(rois, roi_indices, n_level):
    """RoIs and their image indices split by :func:`roi_levels`, as lists
    of arrays on ``rois``' device, and the order that takes the
    concatenation of the lists back to the input order."""
    level = roi_levels(rois, n_level)
    host_rois = to_host(rois)
    host_indices = to_host(roi_indices)
    picks = [numpy.flatnonzero(level == l) for l in range(n_level)]
    order = numpy.argsort(numpy.concatenate(picks), kind='stable')
    return ([like(host_rois[p], rois) for p in picks],
            [like(host_indices[p], rois) for p in picks],
            like(order, rois))


def pool(hs, rois, roi_indices, roi_size, scales, sampling_ratio=2):
    """RoI-align pooling of each level's RoIs from that level's features,
    concatenated level by level; None when there is no RoI."""
    pooled = [F.roi_average_align_2d(h, rois[l], roi_indices[l], roi_size,
                                     scales[l], sampling_ratio)
              for l, h in enumerate(hs) if len(rois[l])]
    return F.concat(pooled, axis=0) if pooled else None


def smooth_l1(x, t, beta):
    """Elementwise smooth L1: quadratic under ``beta``, linear (slope 1)
    beyond; the Huber loss scaled by ``1 / beta``."""
    return F.huber_loss(x, t, beta, reduce='no') / beta


def flatten_levels(rois, roi_indices):
    """Per-level lists to host arrays: the RoIs, their image indices and
    their levels."""
    levels = numpy.concatenate(
        [numpy.full((len(r),), l, numpy.int32) for l, r in enumerate(rois)])
    return (numpy.concatenate([to_host(r).reshape((-1, 4)) for r in rois])
            .astype(numpy.float32),
            numpy.concatenate([to_host(i).ravel() for i in roi_indices])
            .astype(numpy.int32),
            levels)


def split_levels(levels, n_level, reference, *arrays):
    """Host arrays split back into per-level lists on ``reference``'s
    device, one list per array."""
    picks = [levels == l for l in range(n_level)]
    return tuple([like(a[p], reference) for p in picks] for a in arrays)
