"""Evaluation metrics of detection and segmentation (ChainerCV's
``chainercv.evaluations``): PASCAL VOC average precisions, MS COCO average
precisions and recalls, and the IoUs and accuracies of semantic
segmentation.
"""
from chainer_cv.evaluations.eval_detection_coco import (  # NOQA
    eval_detection_coco)
from chainer_cv.evaluations.eval_detection_voc import (  # NOQA
    calc_detection_voc_ap, calc_detection_voc_prec_rec, eval_detection_voc)
from chainer_cv.evaluations.eval_instance_segmentation_coco import (  # NOQA
    eval_instance_segmentation_coco)
from chainer_cv.evaluations.eval_instance_segmentation_voc import (  # NOQA
    calc_instance_segmentation_voc_prec_rec, eval_instance_segmentation_voc)
from chainer_cv.evaluations.eval_semantic_segmentation import (  # NOQA
    calc_semantic_segmentation_confusion, calc_semantic_segmentation_iou,
    eval_semantic_segmentation)
