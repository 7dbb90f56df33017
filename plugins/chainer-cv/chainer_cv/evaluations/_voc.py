"""The PASCAL VOC precision/recall core, shared by boxes and masks."""
import collections

import numpy

# A match of a prediction: a true positive, a false positive, or neither
# (it found a ground truth marked difficult, which VOC leaves out).
_TP, _FP, _IGNORED = 1, 0, -1


def prec_rec(preds, gts, iou_of, iou_thresh):
    """Precision and recall per class over validated per-image arrays.

    ``preds`` holds a ``(regions, labels, scores)`` tuple per image,
    ``gts`` a ``(regions, labels, difficults)`` tuple.

    ``iou_of(pred, gt)`` gives the ``(N, K)`` IoUs of two sets of regions.
    Within an image, the predictions of a class are taken by decreasing
    score; each takes the ground truth it overlaps most, and is a true
    positive if that IoU reaches ``iou_thresh`` and no earlier prediction
    took it.
    """
    n_pos = collections.defaultdict(int)
    scores = collections.defaultdict(list)
    matches = collections.defaultdict(list)
    for (pred_region, pred_label, pred_score), \
            (gt_region, gt_label, gt_difficult) in zip(preds, gts):
        for label in numpy.unique(numpy.concatenate((pred_label, gt_label))):
            is_pred = pred_label == label
            order = numpy.argsort(-pred_score[is_pred], kind='stable')
            score = pred_score[is_pred][order]
            region = pred_region[is_pred][order]
            is_gt = gt_label == label
            difficult = gt_difficult[is_gt]
            n_pos[label] += int(numpy.count_nonzero(~difficult))
            scores[label].append(score)
            matches[label].append(_match(
                region, gt_region[is_gt], difficult, iou_of, iou_thresh))

    n_class = max(n_pos) + 1 if n_pos else 0
    prec = [None] * n_class
    rec = [None] * n_class
    for label in n_pos:
        order = numpy.argsort(-numpy.concatenate(scores[label]),
                              kind='stable')
        match = numpy.concatenate(matches[label])[order]
        tp = numpy.cumsum(match == _TP)
        fp = numpy.cumsum(match == _FP)
        # Leading predictions that only found difficult ground truths have
        # no precision yet (0 / 0): NaN, as ChainerCV.
        with numpy.errstate(divide='ignore', invalid='ignore'):
            prec[label] = tp / (tp + fp)
        if n_pos[label] > 0:
            rec[label] = tp / n_pos[label]
    return prec, rec


def _match(pred_region, gt_region, gt_difficult, iou_of, iou_thresh):
    match = numpy.full(len(pred_region), _FP, dtype=numpy.int8)
    if len(pred_region) == 0 or len(gt_region) == 0:
        return match
    iou = iou_of(pred_region, gt_region)
    best = iou.argmax(axis=1)
    found = iou.max(axis=1) >= iou_thresh
    taken = numpy.zeros(len(gt_region), dtype=bool)
    for i in numpy.flatnonzero(found):
        gt = best[i]
        if gt_difficult[gt]:
            match[i] = _IGNORED
        elif not taken[gt]:
            match[i] = _TP
            taken[gt] = True
    return match


def average_precision(fname, prec, rec, use_07_metric):
    """AP per class from :func:`prec_rec`'s lists (NaN where either is
    None)."""
    if len(prec) != len(rec):
        raise ValueError('{}: prec and rec must hold one entry per class, '
                         'got len(prec)={} and len(rec)={}'.format(
                             fname, len(prec), len(rec)))
    ap = numpy.full(len(prec), numpy.nan)
    for label, (p, r) in enumerate(zip(prec, rec)):
        if p is None or r is None:
            continue
        p = numpy.nan_to_num(numpy.asarray(p, dtype=numpy.float64))
        r = numpy.asarray(r, dtype=numpy.float64)
        if len(p) != len(r):
            raise ValueError(
                '{}: prec[{}] and rec[{}] must have one length, got {} and '
                '{}'.format(fname, label, label, len(p), len(r)))
        ap[label] = _eleven_point(p, r) if use_07_metric else _area(p, r)
    return ap


def _eleven_point(prec, rec):
    # k / 10 rather than steps of 0.1, so that a recall of exactly 0.3
    # reaches the point 0.3.
    total = 0.
    for threshold in numpy.arange(11) / 10:
        reached = prec[rec >= threshold]
        total += reached.max() if len(reached) else 0.
    return total / 11


def _area(prec, rec):
    # The interpolated precision at recall r is the best precision at any
    # recall >= r; the AP is the area under that step function.
    rec = numpy.concatenate(([0.], rec, [1.]))
    prec = numpy.concatenate(([0.], prec, [0.]))
    prec = numpy.maximum.accumulate(prec[::-1])[::-1]
    steps = numpy.flatnonzero(rec[1:] != rec[:-1])
    return float(numpy.sum((rec[steps + 1] - rec[steps]) * prec[steps + 1]))

