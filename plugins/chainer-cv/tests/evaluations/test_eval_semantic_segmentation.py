"""Confusion, IoU and accuracies of label maps worked out by hand."""
import numpy
import pytest

from chainer_cv.evaluations import calc_semantic_segmentation_confusion
from chainer_cv.evaluations import calc_semantic_segmentation_iou
from chainer_cv.evaluations import eval_semantic_segmentation

# The bottom right pixel is not labelled; of the five others, four are
# right. The second image brings class 3, predicted on a pixel of class 0.
PRED = [numpy.array([[0, 0, 1], [1, 2, 2]], numpy.int32),
        numpy.array([[3]], numpy.int32)]
GT = [numpy.array([[0, 1, 1], [1, 2, -1]], numpy.int32),
      numpy.array([[0]], numpy.int32)]

# Rows ground truth, columns prediction.
CONFUSION = {1: [[1, 0, 0],
                 [1, 2, 0],
                 [0, 0, 1]],
             2: [[1, 0, 0, 1],
                 [1, 2, 0, 0],
                 [0, 0, 1, 0],
                 [0, 0, 0, 0]]}


@pytest.mark.parametrize('n_image', [1, 2])
class TestCalcSemanticSegmentationConfusion:

    def test_hand_computed(self, n_image):
        confusion = calc_semantic_segmentation_confusion(
            PRED[:n_image], GT[:n_image])
        numpy.testing.assert_array_equal(confusion, CONFUSION[n_image])

    def test_shapes_must_agree(self, n_image):
        with pytest.raises(ValueError, match=r'pred_labels\[0\] and '
                                             r'gt_labels\[0\] must have one '
                                             r'shape, got \(2, 3\) and '
                                             r'\(1, 1\)'):
            calc_semantic_segmentation_confusion(PRED[:n_image],
                                                 GT[::-1][:n_image])


@pytest.mark.parametrize('confusion, expected', [
    # IoU = right / (in the ground truth + predicted - right).
    (CONFUSION[1], [1 / 2, 2 / 3, 1]),
    (CONFUSION[2], [1 / 3, 2 / 3, 1, 0]),
    ([[0, 0], [0, 3]], [numpy.nan, 1]),
])
class TestCalcSemanticSegmentationIoU:

    def test_hand_computed(self, confusion, expected):
        numpy.testing.assert_allclose(
            calc_semantic_segmentation_iou(numpy.array(confusion)), expected)


@pytest.mark.parametrize('n_image, expected', [
    (1, {'iou': [1 / 2, 2 / 3, 1], 'pixel_accuracy': 4 / 5,
         'class_accuracy': [1, 2 / 3, 1]}),
    # Class 3 has no ground truth: no class accuracy, left out of the mean.
    (2, {'iou': [1 / 3, 2 / 3, 1, 0], 'pixel_accuracy': 4 / 6,
         'class_accuracy': [1 / 2, 2 / 3, 1, numpy.nan]}),
])
class TestEvalSemanticSegmentation:

    def test_hand_computed(self, n_image, expected):
        result = eval_semantic_segmentation(PRED[:n_image], GT[:n_image])
        numpy.testing.assert_allclose(result['iou'], expected['iou'])
        assert result['miou'] == pytest.approx(numpy.mean(expected['iou']))
        assert result['pixel_accuracy'] == pytest.approx(
            expected['pixel_accuracy'])
        numpy.testing.assert_allclose(result['class_accuracy'],
                                      expected['class_accuracy'])
        assert result['mean_class_accuracy'] == pytest.approx(
            numpy.nanmean(expected['class_accuracy']))

    def test_bad_input(self, n_image, expected):
        with pytest.raises(ValueError, match=r'len\(pred_labels\)=2.*'
                                             r'len\(gt_labels\)=1'):
            eval_semantic_segmentation(PRED, GT[:1])
        with pytest.raises(ValueError, match=r'eval_semantic_segmentation: '
                                             r'pred_labels\[0\] must be a '
                                             r'label map \(H, W\)'):
            eval_semantic_segmentation([PRED[0][None]], [GT[0]])
        with pytest.raises(TypeError, match=r'gt_labels\[0\] must hold '
                                            r'integer labels, got dtype '
                                            r'float32'):
            eval_semantic_segmentation(PRED[:1],
                                       [GT[0].astype(numpy.float32)])
