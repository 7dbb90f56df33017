"""Instance segmentation evaluated by the MS COCO metrics."""
from chainer_cv.evaluations import _coco
from chainer_cv.evaluations import _overlap


def eval_instance_segmentation_coco(pred_masks, pred_labels, pred_scores,
                                    gt_masks, gt_labels, gt_areas=None,
                                    gt_crowdeds=None):
    """Average precisions and recalls of instance masks by the MS COCO
    metrics.

    The metrics of :func:`~chainer_cv.evaluations.eval_detection_coco`,
    with the IoU of masks (in pixels) in place of that of boxes, and mask
    areas as object areas.

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
        gt_areas (iterable of numpy.ndarray): per image, the area of each
            ground truth object ``(R',)``. None: the mask areas, and the
            summaries over small, medium and large objects are left out.
        gt_crowdeds (iterable of numpy.ndarray): per image, whether each
            ground truth is a crowd region ``(R',)``; None: none is.

    Returns:
        dict: the keys of
        :func:`~chainer_cv.evaluations.eval_detection_coco`.
    """
    return _coco.evaluate_instances(
        'eval_instance_segmentation_coco', 'mask', pred_masks, pred_labels,
        pred_scores, gt_masks, gt_labels, gt_areas, gt_crowdeds,
        _overlap.mask_overlap, _overlap.mask_area)
