"""The MS COCO evaluation of a detector as a trainer extension."""
from chainer_cv.evaluations import eval_detection_coco
from chainer_cv.extensions import _evaluator


class DetectionCOCOEvaluator(_evaluator.COCOEvaluator):
    """Evaluate a detector by the MS COCO average precisions and recalls.

    Each example of ``iterator`` is ``(img, bbox, label)`` or
    ``(img, bbox, label, area, crowded)``; ``target.predict(imgs)``
    returns ``(bboxes, labels, scores)``. It reports the means over the
    classes, ``'map/<summary>'`` and ``'mar/<summary>'``
    (``'map/iou=0.50:0.95/area=all/max_dets=100'`` ...), and, when
    ``label_names`` is given, ``'ap/<summary>/<label_names[l]>'`` and
    ``'ar/<summary>/<label_names[l]>'``, for the summaries of
    :func:`~chainer_cv.evaluations.eval_detection_coco` (those over
    object sizes only when the examples give areas).

    Args:
        iterator: the validation examples (``repeat=False``).
        target: a link with a ``predict`` method.
        label_names (sequence of str): the names of the classes.
    """

    evaluation = staticmethod(eval_detection_coco)
    region = 'bbox'
