"""PASCAL VOC AP of instance masks on cases worked out by hand."""
import numpy
import pytest

from chainer_cv.evaluations import calc_instance_segmentation_voc_prec_rec
from chainer_cv.evaluations import eval_instance_segmentation_voc


def _mask(y_min, x_min, y_max, x_max, size=(8, 8)):
    mask = numpy.zeros(size, dtype=bool)
    mask[y_min:y_max, x_min:x_max] = True
    return mask


def _case():
    """Ground truths: G1, the 4x4 top left square, and G2, the 4x4 bottom
    right one. Predictions: the top half of G1 (0.9, IoU 8/16), G1 itself
    (0.8) and a square off any object (0.7)."""
    gt_mask = numpy.stack([_mask(0, 0, 4, 4), _mask(4, 4, 8, 8)])
    pred_mask = numpy.stack([_mask(0, 0, 2, 4), _mask(0, 0, 4, 4),
                             _mask(0, 5, 3, 8)])
    return ([pred_mask], [numpy.zeros(3, numpy.int32)],
            [numpy.array([0.9, 0.8, 0.7])], [gt_mask],
            [numpy.zeros(2, numpy.int32)])


# (iou_thresh, precision, recall): at 0.5 the half mask takes G1 and the
# whole one is a duplicate; above, the half misses and the whole one hits.
_PREC_REC = {0.5: ([1, 0.5, 1 / 3], [0.5, 0.5, 0.5]),
             0.6: ([0, 0.5, 1 / 3], [0, 0.5, 0.5])}


@pytest.mark.parametrize('iou_thresh', [0.5, 0.6])
class TestCalcInstanceSegmentationVOCPrecRec:

    def test_hand_computed(self, iou_thresh):
        prec, rec = calc_instance_segmentation_voc_prec_rec(
            *_case(), iou_thresh=iou_thresh)
        expected_prec, expected_rec = _PREC_REC[iou_thresh]
        numpy.testing.assert_allclose(prec[0], expected_prec)
        numpy.testing.assert_allclose(rec[0], expected_rec)


@pytest.mark.parametrize('iou_thresh, use_07_metric, expected', [
    # The precision envelope is 1 up to recall 0.5 at 0.5 and 0.5 at 0.6.
    (0.5, False, 0.5), (0.5, True, 6 / 11),
    (0.6, False, 0.25), (0.6, True, 6 * 0.5 / 11),
])
class TestEvalInstanceSegmentationVOC:

    def test_hand_computed(self, iou_thresh, use_07_metric, expected):
        result = eval_instance_segmentation_voc(
            *_case(), iou_thresh=iou_thresh, use_07_metric=use_07_metric)
        numpy.testing.assert_allclose(result['ap'], [expected])
        assert result['map'] == pytest.approx(expected)

    def test_masks_must_be_bool(self, iou_thresh, use_07_metric, expected):
        case = list(_case())
        case[3] = [case[3][0].astype(numpy.uint8)]
        with pytest.raises(TypeError, match=r'eval_instance_segmentation_voc'
                                            r': gt_masks\[0\] must be bool '
                                            r'masks, got dtype uint8'):
            eval_instance_segmentation_voc(*case, iou_thresh=iou_thresh)

    def test_masks_must_be_of_one_size(self, iou_thresh, use_07_metric,
                                       expected):
        case = list(_case())
        case[3] = [case[3][0][:, :7]]
        with pytest.raises(ValueError, match=r'pred_masks\[0\] and '
                                             r'gt_masks\[0\] must be masks '
                                             r'of one image size'):
            eval_instance_segmentation_voc(*case, iou_thresh=iou_thresh)

    def test_masks_shape(self, iou_thresh, use_07_metric, expected):
        case = list(_case())
        case[0] = [case[0][0][0]]
        with pytest.raises(ValueError, match=r'pred_masks\[0\] must be masks '
                                             r'of shape \(R, H, W\), got '
                                             r'shape \(8, 8\)'):
            eval_instance_segmentation_voc(*case, iou_thresh=iou_thresh)
