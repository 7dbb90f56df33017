"""Object detection evaluated by the PASCAL VOC metric."""
import numpy

from chainer_cv.evaluations import _checks
from chainer_cv.evaluations import _nan
from chainer_cv.evaluations import _overlap
from chainer_cv.evaluations import _voc


def eval_detection_voc(pred_bboxes, pred_labels, pred_scores, gt_bboxes,
                       gt_labels, gt_difficults=None, iou_thresh=0.5,
                       use_07_metric=False):
    """Average precisions of detections by the PASCAL VOC metric.

    A prediction is a true positive when its IoU with a ground truth box
    of its class is at least ``iou_thresh`` and no prediction of higher
    score took that box. Ground truths marked difficult count neither as
    misses nor, when matched, as hits. As in the VOC development kit,
    coordinates are integer pixel positions: a box covers
    ``y_max - y_min + 1`` rows.

    Args:
        pred_bboxes (iterable of numpy.ndarray): per image, the predicted
            boxes ``(R, 4)``, ``(y_min, x_min, y_max, x_max)``.
        pred_labels (iterable of numpy.ndarray): per image, the predicted
            labels ``(R,)``, in ``[0, #fg_class - 1]``.
        pred_scores (iterable of numpy.ndarray): per image, the confidence
            of each prediction ``(R,)``.
        gt_bboxes (iterable of numpy.ndarray): per image, the ground truth
            boxes ``(R', 4)``.
        gt_labels (iterable of numpy.ndarray): per image, their labels
            ``(R',)``.
        gt_difficults (iterable of numpy.ndarray): per image, whether each
            ground truth is difficult ``(R',)``; None: none is.
        iou_thresh (float): the IoU a true positive reaches.
        use_07_metric (bool): the VOC2007 AP, the mean of the interpolated
            precision at the 11 recalls 0, 0.1, ..., 1; otherwise the area
            under the interpolated precision/recall curve (VOC2010 on).

    Returns:
        dict: ``'ap'``, a ``(#fg_class,)`` array of the AP of each class
        (NaN for a class without ground truth or without any label in
        either sequence), and ``'map'``, the mean of the APs that are not
        NaN.
    """
    prec, rec = _prec_rec('eval_detection_voc', pred_bboxes, pred_labels,
                          pred_scores, gt_bboxes, gt_labels, gt_difficults,
                          iou_thresh)
    ap = _voc.average_precision('eval_detection_voc', prec, rec,
                                use_07_metric)
    return {'ap': ap, 'map': _nan.nanmean(ap)}


def calc_detection_voc_prec_rec(pred_bboxes, pred_labels, pred_scores,
                                gt_bboxes, gt_labels, gt_difficults=None,
                                iou_thresh=0.5):
    """Precision and recall of detections by the PASCAL VOC metric.

    The arguments are those of :func:`eval_detection_voc`.

    Returns:
        tuple of two lists: ``prec`` and ``rec``, one entry per class
        ``l`` up to the largest label seen. ``prec[l]`` is the precision
        after each of the predictions of class ``l``, taken by decreasing
        score over all images (None if ``l`` appears nowhere); ``rec[l]``
        the recall (None if ``l`` has no ground truth that is not
        difficult).
    """
    return _prec_rec('calc_detection_voc_prec_rec', pred_bboxes,
                     pred_labels, pred_scores, gt_bboxes, gt_labels,
                     gt_difficults, iou_thresh)


def calc_detection_voc_ap(prec, rec, use_07_metric=False):
    """Average precision of each class from precisions and recalls.

    Args:
        prec (list of numpy.ndarray): per class, the precisions (None for
            a class to skip), as from :func:`calc_detection_voc_prec_rec`.
            NaN precisions count as 0.
        rec (list of numpy.ndarray): per class, the recalls.
        use_07_metric (bool): the VOC2007 11-point AP; otherwise the area
            under the interpolated precision/recall curve.

    Returns:
        numpy.ndarray: ``(#class,)`` APs, NaN where ``prec[l]`` or
        ``rec[l]`` is None.
    """
    return _voc.average_precision('calc_detection_voc_ap', prec, rec,
                                  use_07_metric)


def _prec_rec(fname, pred_bboxes, pred_labels, pred_scores, gt_bboxes,
              gt_labels, gt_difficults, iou_thresh):
    seqs = _checks.per_image(
        fname, pred_bboxes=pred_bboxes, pred_labels=pred_labels,
        pred_scores=pred_scores, gt_bboxes=gt_bboxes, gt_labels=gt_labels,
        gt_difficults=gt_difficults)
    n_image = len(seqs['pred_bboxes'])
    difficults = seqs['gt_difficults'] or [None] * n_image
    preds, gts = [], []
    for i in range(n_image):
        preds.append(_checks.instances(
            fname, i, 'bbox', 'pred_bboxes', seqs['pred_bboxes'][i],
            pred_labels=(seqs['pred_labels'][i], 'label'),
            pred_scores=(seqs['pred_scores'][i], 'score')))
        bbox, label, difficult = _checks.instances(
            fname, i, 'bbox', 'gt_bboxes', seqs['gt_bboxes'][i],
            gt_labels=(seqs['gt_labels'][i], 'label'),
            gt_difficults=(difficults[i], 'flag'))
        if difficult is None:
            difficult = numpy.zeros(len(bbox), dtype=bool)
        gts.append((bbox, label, difficult))
    return _voc.prec_rec(preds, gts, _voc_iou, iou_thresh)


def _voc_iou(pred_bbox, gt_bbox):
    return _overlap.iou(*_overlap.bbox_overlap(pred_bbox, gt_bbox, offset=1.))
