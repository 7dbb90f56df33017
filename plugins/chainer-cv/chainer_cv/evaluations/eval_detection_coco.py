"""Object detection evaluated by the MS COCO metrics."""
from chainer_cv.evaluations import _coco
from chainer_cv.evaluations import _overlap


def eval_detection_coco(pred_bboxes, pred_labels, pred_scores, gt_bboxes,
                        gt_labels, gt_areas=None, gt_crowdeds=None):
    """Average precisions and recalls of detections by the MS COCO metrics.

    The twelve summaries of the COCO detection evaluation: APs averaged
    over the IoU thresholds 0.50, 0.55, ..., 0.95 or at 0.50 and 0.75,
    over objects of all sizes or only small (area < 32²), medium or large
    (area > 96²) ones, and average recalls with at most 1, 10 or 100
    predictions per image. Precision is interpolated at the 101 recalls
    0, 0.01, ..., 1. A prediction may hit a crowd region, measured by the
    intersection over its own area, any number of times; such hits, and
    ground truths of another size than the one evaluated, count neither
    way. Box areas are ``(y_max - y_min) * (x_max - x_min)``.

    Args:
        pred_bboxes (iterable of numpy.ndarray): per image, the predicted
            boxes ``(R, 4)``, ``(y_min, x_min, y_max, x_max)``.
        pred_labels (iterable of numpy.ndarray): per image, their labels
            ``(R,)``.
        pred_scores (iterable of numpy.ndarray): per image, their
            confidences ``(R,)``.
        gt_bboxes (iterable of numpy.ndarray): per image, the ground truth
            boxes ``(R', 4)``.
        gt_labels (iterable of numpy.ndarray): per image, their labels
            ``(R',)``.
        gt_areas (iterable of numpy.ndarray): per image, the area of each
            ground truth object ``(R',)`` (COCO gives that of its mask).
            None: the box areas, and the summaries over small, medium and
            large objects are left out.
        gt_crowdeds (iterable of numpy.ndarray): per image, whether each
            ground truth is a crowd region ``(R',)``; None: none is.

    Returns:
        dict: for each summary, ``'ap/<summary>'`` or ``'ar/<summary>'``,
        an array holding the value of each class ``l`` at index ``l``
        (NaN for a class absent from both the predictions and the ground
        truth, or without ground truth of the size evaluated), and
        ``'map/<summary>'`` or ``'mar/<summary>'``, the mean of the
        values that are not NaN. The summaries are
        ``iou=0.50:0.95/area=all/max_dets=100``,
        ``iou=0.50/area=all/max_dets=100``,
        ``iou=0.75/area=all/max_dets=100`` and
        ``iou=0.50:0.95/area={small,medium,large}/max_dets=100`` for APs;
        ``iou=0.50:0.95/area=all/max_dets={1,10,100}`` and
        ``iou=0.50:0.95/area={small,medium,large}/max_dets=100`` for
        ARs. ``'existent_labels'`` holds the labels seen. ChainerCV's
        ``'coco_eval'`` (the pycocotools object) is not returned: the
        evaluation does not use pycocotools.
    """
    return _coco.evaluate_instances(
        'eval_detection_coco', 'bbox', pred_bboxes, pred_labels,
        pred_scores, gt_bboxes, gt_labels, gt_areas, gt_crowdeds,
        _overlap.bbox_overlap, _overlap.bbox_area)
