"""The PASCAL VOC evaluation of a detector as a trainer extension."""
from chainer_cv.evaluations import eval_detection_voc
from chainer_cv.extensions import _evaluator


class DetectionVOCEvaluator(_evaluator.PredictionEvaluator):
    """Evaluate a detector by the PASCAL VOC average precisions.

    Each example of ``iterator`` is ``(img, bbox, label)`` or
    ``(img, bbox, label, difficult)``; ``target.predict(imgs)`` returns
    ``(bboxes, labels, scores)``. It reports, under the target's name
    (``validation/main/map`` in a trainer):

    * ``'map'``: the mean of the APs.
    * ``'ap/<label_names[l]>'``: the AP of class ``l`` (NaN for a class
      never seen), when ``label_names`` is given.

    Args:
        iterator: the validation examples (``repeat=False``).
        target: a link with a ``predict`` method.
        use_07_metric (bool): the VOC2007 11-point AP.
        label_names (sequence of str): the names of the classes.
    """

    def __init__(self, iterator, target, use_07_metric=False,
                 label_names=None):
        super().__init__(iterator, target, label_names)
        self.use_07_metric = use_07_metric

    def compute(self, preds, gts):
        pred_bboxes, pred_labels, pred_scores = preds
        if len(gts) not in (2, 3):
            raise ValueError(
                'DetectionVOCEvaluator: examples must be (img, bbox, label) '
                'or (img, bbox, label, difficult), got {} values'.format(
                    len(gts) + 1))
        gt_difficults = gts[2] if len(gts) == 3 else None
        result = eval_detection_voc(
            pred_bboxes, pred_labels, pred_scores, gts[0], gts[1],
            gt_difficults, use_07_metric=self.use_07_metric)
        report = {'map': result['map']}
        self.report_per_label(report, 'ap', result['ap'])
        return report
