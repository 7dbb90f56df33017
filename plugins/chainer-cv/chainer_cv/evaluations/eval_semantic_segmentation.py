"""Semantic segmentation evaluated by IoU and pixel accuracies."""
import numpy

from chainer_cv.evaluations import _checks
from chainer_cv.evaluations import _nan


def eval_semantic_segmentation(pred_labels, gt_labels):
    """IoUs and pixel accuracies of label maps.

    Pixels whose ground truth label is ``-1`` are not evaluated. With the
    confusion matrix :math:`N` of :func:`calc_semantic_segmentation_confusion`,
    the IoU of class :math:`i` is
    :math:`N_{ii} / (\\sum_j N_{ij} + \\sum_j N_{ji} - N_{ii})`, the pixel
    accuracy :math:`\\sum_i N_{ii} / \\sum_{ij} N_{ij}` and the class
    accuracy of :math:`i` is :math:`N_{ii} / \\sum_j N_{ij}`.

    Args:
        pred_labels (iterable of numpy.ndarray): per image, the predicted
            labels ``(H, W)``, integers >= 0.
        gt_labels (iterable of numpy.ndarray): per image, the ground truth
            labels ``(H, W)``, integers, ``-1`` for pixels to ignore.

    Returns:
        dict: ``'iou'`` and ``'class_accuracy'``, ``(#class,)`` arrays (NaN
        for a class that is neither predicted nor in the ground truth,
        respectively absent from the ground truth), ``'miou'`` and
        ``'mean_class_accuracy'``, their means over the entries that are
        not NaN, and ``'pixel_accuracy'``.
    """
    confusion = _confusion('eval_semantic_segmentation', pred_labels,
                           gt_labels)
    iou = calc_semantic_segmentation_iou(confusion)
    gt_pixels = confusion.sum(axis=1)
    with numpy.errstate(divide='ignore', invalid='ignore'):
        class_accuracy = numpy.diag(confusion) / gt_pixels
        pixel_accuracy = numpy.diag(confusion).sum() / confusion.sum()
    return {'iou': iou, 'miou': _nan.nanmean(iou),
            'pixel_accuracy': float(pixel_accuracy),
            'class_accuracy': class_accuracy,
            'mean_class_accuracy': _nan.nanmean(class_accuracy)}


def calc_semantic_segmentation_confusion(pred_labels, gt_labels):
    """The confusion matrix of label maps.

    Args:
        pred_labels (iterable of numpy.ndarray): per image, the predicted
            labels ``(H, W)``.
        gt_labels (iterable of numpy.ndarray): per image, the ground truth
            labels ``(H, W)``, ``-1`` for pixels to ignore.

    Returns:
        numpy.ndarray: ``(n_class, n_class)`` int64, ``n_class`` one more
        than the largest label seen; entry ``(i, j)`` counts the pixels of
        ground truth ``i`` predicted as ``j``.
    """
    return _confusion('calc_semantic_segmentation_confusion', pred_labels,
                      gt_labels)


def calc_semantic_segmentation_iou(confusion):
    """IoU of each class from a confusion matrix.

    Args:
        confusion (numpy.ndarray): ``(n_class, n_class)``, rows ground
            truth, columns prediction, as from
            :func:`calc_semantic_segmentation_confusion`.

    Returns:
        numpy.ndarray: ``(n_class,)`` IoUs, NaN for a class neither
        predicted nor in the ground truth.
    """
    confusion = numpy.asarray(confusion)
    if confusion.ndim != 2 or confusion.shape[0] != confusion.shape[1]:
        raise ValueError(
            'calc_semantic_segmentation_iou: confusion must be a square '
            'matrix (n_class, n_class), got shape {}'.format(confusion.shape))
    intersection = numpy.diag(confusion)
    union = confusion.sum(axis=0) + confusion.sum(axis=1) - intersection
    with numpy.errstate(divide='ignore', invalid='ignore'):
        return intersection / union


def _confusion(fname, pred_labels, gt_labels):
    seqs = _checks.per_image(fname, pred_labels=pred_labels,
                             gt_labels=gt_labels)
    confusion = numpy.zeros((0, 0), dtype=numpy.int64)
    for i, (pred, gt) in enumerate(zip(seqs['pred_labels'],
                                       seqs['gt_labels'])):
        pred = _label_map(fname, 'pred_labels', i, pred)
        gt = _label_map(fname, 'gt_labels', i, gt)
        if pred.shape != gt.shape:
            raise ValueError(
                '{}: pred_labels[{}] and gt_labels[{}] must have one shape, '
                'got {} and {}'.format(fname, i, i, pred.shape, gt.shape))
        evaluated = gt >= 0
        pred, gt = pred[evaluated], gt[evaluated]
        if pred.size and pred.min() < 0:
            raise ValueError(
                '{}: pred_labels[{}] must be >= 0 where the ground truth is '
                'not ignored, got {}'.format(fname, i, pred.min()))
        n_class = max(len(confusion), int(pred.max(initial=-1)) + 1,
                      int(gt.max(initial=-1)) + 1)
        if n_class > len(confusion):
            grown = numpy.zeros((n_class, n_class), dtype=numpy.int64)
            grown[:len(confusion), :len(confusion)] = confusion
            confusion = grown
        confusion += numpy.bincount(
            gt * n_class + pred, minlength=n_class ** 2).reshape(
                n_class, n_class)
    return confusion


def _label_map(fname, name, index, array):
    array = _checks.host(array)
    if array.ndim != 2:
        raise ValueError('{}: {}[{}] must be a label map (H, W), got shape '
                         '{}'.format(fname, name, index, array.shape))
    if array.dtype.kind not in 'iu':
        raise TypeError('{}: {}[{}] must hold integer labels, got dtype '
                        '{}'.format(fname, name, index, array.dtype))
    return array.astype(numpy.int64)
