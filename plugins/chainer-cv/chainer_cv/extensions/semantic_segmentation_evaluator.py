"""The evaluation of semantic segmentation as a trainer extension."""
from chainer_cv.evaluations import eval_semantic_segmentation
from chainer_cv.extensions import _evaluator


class SemanticSegmentationEvaluator(_evaluator.PredictionEvaluator):
    """Evaluate label maps by IoU and pixel accuracies.

    Each example of ``iterator`` is ``(img, label)``;
    ``target.predict(imgs)`` returns the predicted label maps. It reports:

    * ``'miou'``, ``'pixel_accuracy'`` and ``'mean_class_accuracy'``.
    * ``'iou/<label_names[l]>'`` and ``'class_accuracy/<label_names[l]>'``
      when ``label_names`` is given.

    Args:
        iterator: the validation examples (``repeat=False``).
        target: a link with a ``predict`` method.
        label_names (sequence of str): the names of the classes.
    """

    def compute(self, preds, gts):
        if len(gts) != 1:
            raise ValueError(
                'SemanticSegmentationEvaluator: examples must be '
                '(img, label), got {} values'.format(len(gts) + 1))
        result = eval_semantic_segmentation(preds[0], gts[0])
        report = {key: result[key] for key in
                  ('miou', 'pixel_accuracy', 'mean_class_accuracy')}
        self.report_per_label(report, 'iou', result['iou'])
        self.report_per_label(report, 'class_accuracy',
                              result['class_accuracy'])
        return report
