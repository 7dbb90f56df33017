"""The MS COCO evaluation core, shared by boxes and masks.

The definitions are those of the COCO detection evaluation: IoU
thresholds 0.50:0.05:0.95, object areas all/small/medium/large, at most
1, 10 or 100 predictions per image, precision interpolated at 101 recall
levels, crowd regions that predictions may hit any number of times
without counting.
"""
import numpy

from chainer_cv.evaluations import _checks
from chainer_cv.evaluations import _nan
from chainer_cv.evaluations import _overlap

_IOU_THRESHS = numpy.linspace(0.5, 0.95, 10)
_REC_THRESHS = numpy.linspace(0., 1., 101)
_AREA_RANGES = {'all': (0., 1e10), 'small': (0., 32. ** 2),
                'medium': (32. ** 2, 96. ** 2), 'large': (96. ** 2, 1e10)}
_MAX_DETS = (1, 10, 100)

# (statistic, IoU threshold (None: the mean over all), area, max_dets)
_SUMMARIES = (
    ('ap', None, 'all', 100), ('ap', 0.5, 'all', 100),
    ('ap', 0.75, 'all', 100), ('ap', None, 'small', 100),
    ('ap', None, 'medium', 100), ('ap', None, 'large', 100),
    ('ar', None, 'all', 1), ('ar', None, 'all', 10), ('ar', None, 'all', 100),
    ('ar', None, 'small', 100), ('ar', None, 'medium', 100),
    ('ar', None, 'large', 100),
)


def evaluate_instances(fname, region_kind, pred_regions, pred_labels,
                       pred_scores, gt_regions, gt_labels, gt_areas,
                       gt_crowdeds, overlap, area_of):
    """Validate the public functions' arguments, fill in the optional ones
    and :func:`evaluate`.

    ``region_kind`` is ``'bbox'`` or ``'mask'``; ``area_of(regions)`` gives
    the areas of regions.
    """
    kind = {'bbox': 'bboxes', 'mask': 'masks'}[region_kind]
    pred_name, gt_name = 'pred_' + kind, 'gt_' + kind
    seqs = _checks.per_image(
        fname, **{pred_name: pred_regions, 'pred_labels': pred_labels,
                  'pred_scores': pred_scores, gt_name: gt_regions,
                  'gt_labels': gt_labels, 'gt_areas': gt_areas,
                  'gt_crowdeds': gt_crowdeds})
    n_image = len(seqs[pred_name])
    areas = seqs['gt_areas'] or [None] * n_image
    crowdeds = seqs['gt_crowdeds'] or [None] * n_image
    preds, gts = [], []
    for i in range(n_image):
        region, label, score = _checks.instances(
            fname, i, region_kind, pred_name, seqs[pred_name][i],
            pred_labels=(seqs['pred_labels'][i], 'label'),
            pred_scores=(seqs['pred_scores'][i], 'score'))
        preds.append((region, label, score, area_of(region)))
        gt = _checks.instances(
            fname, i, region_kind, gt_name, seqs[gt_name][i],
            gt_labels=(seqs['gt_labels'][i], 'label'),
            gt_areas=(areas[i], 'area'),
            gt_crowdeds=(crowdeds[i], 'flag'))
        if region_kind == 'mask':
            _checks.same_image_size(fname, pred_name, gt_name, i, region,
                                    gt[0])
        if gt[2] is None:
            gt[2] = area_of(gt[0])
        if gt[3] is None:
            gt[3] = numpy.zeros(len(gt[0]), dtype=bool)
        gts.append(tuple(gt))
    return evaluate(preds, gts, overlap, seqs['gt_areas'] is not None)


def evaluate(preds, gts, overlap, area_dependent):
    """The COCO summaries of validated per-image arrays.

    ``preds`` holds a ``(regions, labels, scores, areas)`` tuple per
    image, ``gts`` a ``(regions, labels, areas, crowdeds)`` tuple;
    ``overlap(pred, gt)`` gives the intersections ``(N, K)`` and the areas
    of two sets of regions. Without ``area_dependent`` the summaries over
    small, medium and large objects are left out.
    """
    areas = ('all', 'small', 'medium', 'large') if area_dependent \
        else ('all',)
    labels = numpy.unique(numpy.concatenate(
        [p[1] for p in preds] + [g[1] for g in gts]
        + [numpy.zeros(0, dtype=numpy.int64)]))
    images = {(label, area): [] for label in labels for area in areas}
    for pred, gt in zip(preds, gts):
        _evaluate_image(pred, gt, overlap, areas, images)

    n_slot = int(labels.max()) + 1 if len(labels) else 0
    result = {}
    # Summaries share accumulations: the APs and ARs over all sizes with
    # 100 predictions per image all use one per class.
    accumulated = {}
    for stat, iou_thresh, area, max_dets in _SUMMARIES:
        if area not in areas:
            continue
        if iou_thresh is None:
            thresholds = slice(None)
            iou_name = '{:.2f}:{:.2f}'.format(_IOU_THRESHS[0],
                                              _IOU_THRESHS[-1])
        else:
            thresholds = numpy.isclose(_IOU_THRESHS, iou_thresh)
            iou_name = '{:.2f}'.format(iou_thresh)
        per_class = numpy.full(n_slot, numpy.nan)
        for label in labels:
            if (label, area, max_dets) not in accumulated:
                accumulated[label, area, max_dets] = _accumulate(
                    images[label, area], max_dets)
            prec, rec = accumulated[label, area, max_dets]
            value = prec if stat == 'ap' else rec
            if value is not None:
                per_class[label] = value[thresholds].mean()
        key = '{}/iou={}/area={}/max_dets={}'.format(stat, iou_name, area,
                                                     max_dets)
        result[key] = per_class
        result['m' + key] = _nan.nanmean(per_class)
    result['existent_labels'] = labels.astype(numpy.int32)
    return result


def _evaluate_image(pred, gt, overlap, areas, images):
    pred_region, pred_label, pred_score, pred_area = pred
    gt_region, gt_label, gt_area, gt_crowded = gt
    for label in numpy.unique(numpy.concatenate((pred_label, gt_label))):
        index = numpy.flatnonzero(pred_label == label)
        index = index[numpy.argsort(-pred_score[index], kind='stable')]
        index = index[:_MAX_DETS[-1]]
        is_gt = gt_label == label
        crowded = gt_crowded[is_gt]
        intersection, area_p, area_g = overlap(pred_region[index],
                                               gt_region[is_gt])
        iou = _overlap.iou(intersection, area_p, area_g)
        # A prediction inside a crowd region hits it, however large the
        # crowd: the overlap is measured against the prediction alone.
        with numpy.errstate(divide='ignore', invalid='ignore'):
            crowd_iou = numpy.where(area_p[:, None] > 0,
                                    intersection / area_p[:, None], 0.)
        iou[:, crowded] = crowd_iou[:, crowded]
        for area in areas:
            low, high = _AREA_RANGES[area]
            gt_ignored = crowded | (gt_area[is_gt] < low) | \
                (gt_area[is_gt] > high)
            matched, ignored = _match(iou, gt_ignored, crowded)
            outside = (pred_area[index] < low) | (pred_area[index] > high)
            ignored |= ~matched & outside
            images[label, area].append(
                (pred_score[index], matched, ignored,
                 int(numpy.count_nonzero(~gt_ignored))))


def _match(iou, gt_ignored, crowded):
    """Greedy matching, by decreasing score, at every IoU threshold at
    once.

    A prediction takes a ground truth that is not ignored if it can, the
    one it overlaps most (the last of equals), and an ignored one only
    otherwise; then it is ignored too.
    """
    n_pred, n_gt = iou.shape
    matched = numpy.zeros((len(_IOU_THRESHS), n_pred), dtype=bool)
    ignored = numpy.zeros((len(_IOU_THRESHS), n_pred), dtype=bool)
    taken = numpy.zeros((len(_IOU_THRESHS), n_gt), dtype=bool)
    thresholds = numpy.minimum(_IOU_THRESHS, 1 - 1e-10)[:, None]
    for d in range(n_pred if n_gt else 0):
        candidates = (iou[d] >= thresholds) & (~taken | crowded)
        preferred = candidates & ~gt_ignored
        candidates = numpy.where(preferred.any(axis=1, keepdims=True),
                                 preferred, candidates)
        scores = numpy.where(candidates, iou[d], -numpy.inf)
        gt = n_gt - 1 - numpy.argmax(scores[:, ::-1], axis=1)
        found = numpy.flatnonzero(candidates.any(axis=1))
        matched[found, d] = True
        ignored[found, d] = gt_ignored[gt[found]]
        taken[found, gt[found]] = True
    return matched, ignored


def _accumulate(images, max_dets):
    """Interpolated precisions ``(T, 101)`` and recalls ``(T,)`` of one
    class, area and number of predictions per image; None and None when
    the class has no ground truth to find there."""
    n_gt = sum(image[3] for image in images)
    if n_gt == 0:
        return None, None
    scores = numpy.concatenate([image[0][:max_dets] for image in images])
    order = numpy.argsort(-scores, kind='stable')
    matched = numpy.concatenate(
        [image[1][:, :max_dets] for image in images], axis=1)[:, order]
    ignored = numpy.concatenate(
        [image[2][:, :max_dets] for image in images], axis=1)[:, order]
    tp = numpy.cumsum(matched & ~ignored, axis=1)
    fp = numpy.cumsum(~matched & ~ignored, axis=1)
    prec = numpy.zeros((len(_IOU_THRESHS), len(_REC_THRESHS)))
    rec = numpy.zeros(len(_IOU_THRESHS))
    if len(scores) == 0:
        return prec, rec
    for t in range(len(_IOU_THRESHS)):
        recall = tp[t] / n_gt
        counted = tp[t] + fp[t]
        precision = numpy.divide(tp[t], counted, out=numpy.zeros(len(recall)),
                                 where=counted > 0)
        precision = numpy.maximum.accumulate(precision[::-1])[::-1]
        rec[t] = recall[-1]
        reached = numpy.searchsorted(recall, _REC_THRESHS, side='left')
        valid = reached < len(recall)
        prec[t, valid] = precision[reached[valid]]
    return prec, rec
