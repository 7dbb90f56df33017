"""Instance segmentation evaluated by the PASCAL VOC metric."""
import numpy

from chainer_cv.evaluations import _checks
from chainer_cv.evaluations import _nan
from chainer_cv.evaluations import _overlap
from chainer_cv.evaluations import _voc


def eval_instance_segmentation_voc(pred_masks, pred_labels, pred_scores,
                                   gt_masks, gt_labels, iou_thresh=0.5,
                                   use_07_metric=False):
    """Average precisions of instance masks by the PASCAL VOC metric.

    The metric of :func:`~chainer_cv.evaluations.eval_detection_voc`, with
    the IoU of masks (in pixels) in place of that of boxes.

    Args:
        pred_masks (iterable of numpy.ndarray): per image, the predicted
            masks ``(R, H, W)``, bool.
        pred_labels (iterable of numpy.ndarray): per image, their labels
            ``(R,)``.
        pred_scores (iterable of numpy.ndarray): per image, their
            confidences ``(R,)``.
        gt_masks (iterable of numpy.ndarray): per image, the ground truth
            masks ``(R', H, W)``, bool.
        gt_labels (iterable of numpy.ndarray): per image, their labels
            ``(R',)``.
        iou_thresh (float): the IoU a true positive reaches.
        use_07_metric (bool): the VOC2007 11-point AP; otherwise the area
            under the interpolated precision/recall curve.

    Returns:
        dict: ``'ap'``, the ``(#fg_class,)`` APs (NaN for a class without
        ground truth), and ``'map'``, their mean over the classes that
        have one.
    """
    prec, rec = _prec_rec('eval_instance_segmentation_voc', pred_masks,
                          pred_labels, pred_scores, gt_masks, gt_labels,
                          iou_thresh)
    ap = _voc.average_precision('eval_instance_segmentation_voc', prec, rec,
                                use_07_metric)
    return {'ap': ap, 'map': _nan.nanmean(ap)}


def calc_instance_segmentation_voc_prec_rec(pred_masks, pred_labels,
                                            pred_scores, gt_masks, gt_labels,
                                            iou_thresh=0.5):
    """Precision and recall of instance masks by the PASCAL VOC metric.

    The arguments are those of :func:`eval_instance_segmentation_voc`.

    Returns:
        tuple of two lists: ``prec`` and ``rec`` per class, as
        :func:`~chainer_cv.evaluations.calc_detection_voc_prec_rec`.
    """
    return _prec_rec('calc_instance_segmentation_voc_prec_rec', pred_masks,
                     pred_labels, pred_scores, gt_masks, gt_labels,
                     iou_thresh)


def _prec_rec(fname, pred_masks, pred_labels, pred_scores, gt_masks,
              gt_labels, iou_thresh):
    seqs = _checks.per_image(
        fname, pred_masks=pred_masks, pred_labels=pred_labels,
        pred_scores=pred_scores, gt_masks=gt_masks, gt_labels=gt_labels)
    preds, gts = [], []
    for i in range(len(seqs['pred_masks'])):
        pred = _checks.instances(
            fname, i, 'mask', 'pred_masks', seqs['pred_masks'][i],
            pred_labels=(seqs['pred_labels'][i], 'label'),
            pred_scores=(seqs['pred_scores'][i], 'score'))
        mask, label = _checks.instances(
            fname, i, 'mask', 'gt_masks', seqs['gt_masks'][i],
            gt_labels=(seqs['gt_labels'][i], 'label'))
        _checks.same_image_size(fname, 'pred_masks', 'gt_masks', i,
                                pred[0], mask)
        preds.append(pred)
        gts.append((mask, label, numpy.zeros(len(mask), dtype=bool)))
    return _voc.prec_rec(preds, gts, _mask_iou, iou_thresh)


def _mask_iou(pred_mask, gt_mask):
    return _overlap.iou(*_overlap.mask_overlap(pred_mask, gt_mask))
