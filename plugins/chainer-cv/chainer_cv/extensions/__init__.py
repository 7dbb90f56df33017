"""Trainer extensions of detection and segmentation (ChainerCV's
``chainercv.extensions``): evaluators that report VOC and COCO metrics,
and images of a detector's predictions."""
from chainer_cv.extensions.detection_coco_evaluator import (  # NOQA
    DetectionCOCOEvaluator)
from chainer_cv.extensions.detection_vis_report import (  # NOQA
    DetectionVisReport)
from chainer_cv.extensions.detection_voc_evaluator import (  # NOQA
    DetectionVOCEvaluator)
from chainer_cv.extensions.instance_segmentation_coco_evaluator import (  # NOQA
    InstanceSegmentationCOCOEvaluator)
from chainer_cv.extensions.instance_segmentation_voc_evaluator import (  # NOQA
    InstanceSegmentationVOCEvaluator)
from chainer_cv.extensions.semantic_segmentation_evaluator import (  # NOQA
    SemanticSegmentationEvaluator)
