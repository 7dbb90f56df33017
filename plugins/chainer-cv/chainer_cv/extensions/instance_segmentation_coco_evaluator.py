"""The MS COCO evaluation of instance segmentation as a trainer
extension."""
from chainer_cv.evaluations import eval_instance_segmentation_coco
from chainer_cv.extensions import _evaluator


class InstanceSegmentationCOCOEvaluator(_evaluator.COCOEvaluator):
    """Evaluate instance masks by the MS COCO average precisions and
    recalls.

    Each example of ``iterator`` is ``(img, mask, label)`` or
    ``(img, mask, label, area, crowded)``; ``target.predict(imgs)``
    returns ``(masks, labels, scores)``. It reports the keys of
    :class:`~chainer_cv.extensions.DetectionCOCOEvaluator`.

    Args:
        iterator: the validation examples (``repeat=False``).
        target: a link with a ``predict`` method.
        label_names (sequence of str): the names of the classes.
    """

    evaluation = staticmethod(eval_instance_segmentation_coco)
    region = 'mask'
