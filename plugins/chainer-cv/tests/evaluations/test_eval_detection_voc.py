"""PASCAL VOC AP of boxes on cases worked out by hand."""
import numpy
import pytest

from chainer_cv.evaluations import calc_detection_voc_ap
from chainer_cv.evaluations import calc_detection_voc_prec_rec
from chainer_cv.evaluations import eval_detection_voc

A = [0, 0, 10, 10]
B = [20, 20, 30, 30]
C = [40, 40, 50, 50]


def _case(with_difficult):
    """Class 0: ground truths A and B; predictions A (0.9), A again (0.8,
    a duplicate, so a false positive) and B (0.7): TP, FP, TP, so
    precision 1, 1/2, 2/3 at recall 1/2, 1/2, 1. Class 1 has a ground
    truth and no prediction (AP 0); class 2 a prediction and no ground
    truth (AP NaN). With ``with_difficult``, a difficult C of class 0 is
    found first (0.95): it counts neither way."""
    pred_bbox = [A, A, B, [60, 60, 70, 70]]
    pred_label = [0, 0, 0, 2]
    pred_score = [0.9, 0.8, 0.7, 0.5]
    gt_bbox = [A, B, [80, 80, 90, 90]]
    gt_label = [0, 0, 1]
    gt_difficult = [False, False, False]
    if with_difficult:
        pred_bbox.append(C)
        pred_label.append(0)
        pred_score.append(0.95)
        gt_bbox.append(C)
        gt_label.append(0)
        gt_difficult.append(True)
    # Split over two images: the evaluation pools all images.
    return ([numpy.array(pred_bbox[:2], numpy.float32),
             numpy.array(pred_bbox[2:], numpy.float32)],
            [numpy.array(pred_label[:2], numpy.int32),
             numpy.array(pred_label[2:], numpy.int32)],
            [numpy.array(pred_score[:2], numpy.float32),
             numpy.array(pred_score[2:], numpy.float32)],
            [numpy.array(gt_bbox[:1], numpy.float32),
             numpy.array(gt_bbox[1:], numpy.float32)],
            [numpy.array(gt_label[:1], numpy.int32),
             numpy.array(gt_label[1:], numpy.int32)],
            [numpy.array(gt_difficult[:1]), numpy.array(gt_difficult[1:])])


# Area under the interpolated curve: 1/2 * 1 + 1/2 * 2/3. VOC2007: the
# 6 recalls 0 ... 0.5 reach precision 1, the 5 recalls 0.6 ... 1 reach 2/3.
_AP = {False: 0.5 + 0.5 * 2 / 3, True: (6 + 5 * 2 / 3) / 11}


@pytest.mark.parametrize('use_07_metric', [False, True])
@pytest.mark.parametrize('with_difficult', [False, True])
class TestEvalDetectionVOC:

    def test_hand_computed(self, use_07_metric, with_difficult):
        result = eval_detection_voc(*_case(with_difficult),
                                    use_07_metric=use_07_metric)
        ap = _AP[use_07_metric]
        numpy.testing.assert_allclose(result['ap'], [ap, 0, numpy.nan])
        assert result['map'] == pytest.approx(ap / 2)

    def test_difficults_omitted_means_none_is(self, use_07_metric,
                                              with_difficult):
        case = _case(with_difficult)
        result = eval_detection_voc(*case[:5], use_07_metric=use_07_metric)
        if with_difficult:
            # C is then found: TP, TP, FP, TP of 3.
            assert result['ap'][0] > _AP[use_07_metric]
        else:
            assert result['ap'][0] == pytest.approx(_AP[use_07_metric])


class TestCalcDetectionVOCPrecRec:

    @pytest.mark.parametrize('with_difficult', [False, True])
    def test_hand_computed(self, with_difficult):
        prec, rec = calc_detection_voc_prec_rec(*_case(with_difficult))
        assert len(prec) == len(rec) == 3
        # The difficult hit comes first, with no precision yet.
        head_prec = [numpy.nan] if with_difficult else []
        head_rec = [0] if with_difficult else []
        numpy.testing.assert_allclose(prec[0], head_prec + [1, 0.5, 2 / 3])
        numpy.testing.assert_allclose(rec[0], head_rec + [0.5, 0.5, 1])
        assert len(prec[1]) == 0 and len(rec[1]) == 0
        numpy.testing.assert_allclose(prec[2], [0])
        assert rec[2] is None

    @pytest.mark.parametrize('iou_thresh, hit', [(0.5, True), (0.51, False)])
    def test_boxes_are_integer_pixels(self, iou_thresh, hit):
        # As in the VOC development kit, the box 0..9 spans 10 pixels: the
        # prediction covers half of the ground truth, IoU 0.5 (and not
        # 36 / 81 as continuous coordinates would give).
        prec, rec = calc_detection_voc_prec_rec(
            [numpy.array([[0, 0, 4, 9]])], [numpy.array([0])],
            [numpy.array([1.])], [numpy.array([[0, 0, 9, 9]])],
            [numpy.array([0])], iou_thresh=iou_thresh)
        assert rec[0][0] == (1 if hit else 0)

    @pytest.mark.parametrize('args, message', [
        (([numpy.zeros((1, 4))], [numpy.zeros(1, int)], [numpy.ones(1)],
          [numpy.zeros((1, 4))] * 2, [numpy.zeros(1, int)] * 2),
         r'calc_detection_voc_prec_rec: .*len\(pred_bboxes\)=1.*'
         r'len\(gt_bboxes\)=2'),
        (([numpy.zeros((1, 3))], [numpy.zeros(1, int)], [numpy.ones(1)],
          [numpy.zeros((1, 4))], [numpy.zeros(1, int)]),
         r'pred_bboxes\[0\] must be .* \(R, 4\).*got shape \(1, 3\)'),
        (([numpy.zeros((2, 4))], [numpy.zeros(1, int)], [numpy.ones(2)],
          [numpy.zeros((1, 4))], [numpy.zeros(1, int)]),
         r'pred_labels\[0\] must have the shape \(2,\).*got shape \(1,\)'),
        (([numpy.zeros((1, 4))], [numpy.zeros(1, int)], [numpy.ones(1)],
          [numpy.zeros((1, 4))], [numpy.array([-1])]),
         r'gt_labels\[0\] must be >= 0, got -1'),
    ])
    def test_bad_input(self, args, message):
        with pytest.raises(ValueError, match=message):
            calc_detection_voc_prec_rec(*args)

    def test_label_dtype(self):
        with pytest.raises(TypeError, match=r'gt_labels\[0\] must have an '
                                            r'integer dtype, got float64'):
            calc_detection_voc_prec_rec(
                [numpy.zeros((1, 4))], [numpy.zeros(1, int)],
                [numpy.ones(1)], [numpy.zeros((1, 4))], [numpy.zeros(1)])

    def test_no_image(self):
        assert calc_detection_voc_prec_rec([], [], [], [], []) == ([], [])


@pytest.mark.parametrize('use_07_metric, expected', [
    # Precision 1 up to recall 0.3, then 0.5 up to 0.6: the area is
    # 0.3 + 0.3 * 0.5; VOC2007 averages 1 at 0, 0.1, 0.2, 0.3 and 0.5 at
    # 0.4, 0.5, 0.6.
    (False, 0.3 + 0.3 * 0.5),
    (True, (4 + 3 * 0.5) / 11),
])
class TestCalcDetectionVOCAP:

    def test_hand_computed(self, use_07_metric, expected):
        prec = [numpy.array([1., 1., 1., 0.5, 0.5]), None,
                numpy.array([numpy.nan, 1.])]
        rec = [numpy.array([0.1, 0.2, 0.3, 0.3, 0.6]),
               numpy.array([0.5]), None]
        ap = calc_detection_voc_ap(prec, rec, use_07_metric=use_07_metric)
        numpy.testing.assert_allclose(ap, [expected, numpy.nan, numpy.nan])

    def test_lengths_must_agree(self, use_07_metric, expected):
        with pytest.raises(ValueError, match='calc_detection_voc_ap: prec '
                                             'and rec must hold one entry'):
            calc_detection_voc_ap([numpy.ones(1)], [],
                                  use_07_metric=use_07_metric)
        with pytest.raises(ValueError, match=r'prec\[0\] and rec\[0\]'):
            calc_detection_voc_ap([numpy.ones(2)], [numpy.ones(1)],
                                  use_07_metric=use_07_metric)
