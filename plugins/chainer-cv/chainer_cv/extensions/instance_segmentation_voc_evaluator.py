"""The PASCAL VOC evaluation of instance segmentation as a trainer
extension."""
from chainer_cv.evaluations import eval_instance_segmentation_voc
from chainer_cv.extensions import _evaluator


class InstanceSegmentationVOCEvaluator(_evaluator.PredictionEvaluator):
    """Evaluate instance masks by the PASCAL VOC average precisions.

    Each example of ``iterator`` is ``(img, mask, label)``;
    ``target.predict(imgs)`` returns ``(masks, labels, scores)``. It
    reports ``'map'`` and, when ``label_names`` is given,
    ``'ap/<label_names[l]>'``, as
    :class:`~chainer_cv.extensions.DetectionVOCEvaluator`.

    Args:
        iterator: the validation examples (``repeat=False``).
        target: a link with a ``predict`` method.
        iou_thresh (float): the IoU a true positive reaches.
        use_07_metric (bool): the VOC2007 11-point AP.
        label_names (sequence of str): the names of the classes.
    """

    def __init__(self, iterator, target, iou_thresh=0.5,
                 use_07_metric=False, label_names=None):
        super().__init__(iterator, target, label_names)
        self.iou_thresh = iou_thresh
        self.use_07_metric = use_07_metric

    def compute(self, preds, gts):
        if len(gts) != 2:
            raise ValueError(
                'InstanceSegmentationVOCEvaluator: examples must be '
                '(img, mask, label), got {} values'.format(len(gts) + 1))
        result = eval_instance_segmentation_voc(
            *preds, *gts, iou_thresh=self.iou_thresh,
            use_07_metric=self.use_07_metric)
        report = {'map': result['map']}
        self.report_per_label(report, 'ap', result['ap'])
        return report
